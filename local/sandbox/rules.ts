/**
 * The write rules of licensing-api.md (States and transitions; POST assign, PATCH, DELETE) and the
 * allowed-domains rule of licensing-api-extras.md. Every check runs before any change, so a refused
 * request leaves the data untouched.
 */
import { calendarDayOf, earlier, endOfDay, formatDateTime, later, toMs } from './dates.js';
import { badRequest, notFound } from './errors.js';
import {
  byId,
  findStudentByEmail,
  isActive,
  isExpired,
  poolLicenses,
  type Store,
  type StoredLicense,
  type StoredPool,
  seatsTaken,
} from './store.js';
import { emailDomain, type readAssignBody } from './validate.js';

export type AssignInput = ReturnType<typeof readAssignBody>;

function requirePool(store: Store, poolId: string): StoredPool {
  const pool = store.pools.get(poolId);
  if (!pool) throw notFound('pool', poolId);
  return pool;
}

function requireLicense(store: Store, licenseId: string): StoredLicense {
  const license = store.licenses.get(licenseId);
  if (!license) throw notFound('license', licenseId);
  return license;
}

/** "The license end date cannot exceed the end of its pool" (licensing-api.md, Limits). */
function endWithinPool(pool: StoredPool, day: string): string {
  if (day > calendarDayOf(pool.end)) {
    throw badRequest(
      'date_beyond_pool_end',
      `The end date ${day} is after the end of pool ${pool.id} (${calendarDayOf(pool.end)}).`,
    );
  }
  return earlier(endOfDay(day), pool.end);
}

/**
 * The oldest active license of the pool: earliest start, ties broken by the lowest id
 * (the contract says only "the oldest assigned license").
 */
export function oldestActiveLicense(store: Store, poolId: string): StoredLicense | undefined {
  return poolLicenses(store, poolId)
    .filter((l) => isActive(store, l))
    .sort((a, b) => toMs(a.start) - toMs(b.start) || byId(a, b))[0];
}

function checkDomain(store: Store, pool: StoredPool, email: string): void {
  const allowed = store.me.allowedDomainsForTransferableLicenses.map((d) => d.toLowerCase());
  // Extras, GET /v1/me: transferable licenses only go to these domains (exact match, any case);
  // an empty list is taken as "no restriction configured".
  if (pool.transferable && allowed.length > 0 && !allowed.includes(emailDomain(email))) {
    throw badRequest(
      'domain_not_allowed',
      `Pool ${pool.id} is transferable, and its licenses can only go to addresses at ${allowed.join(', ')}; ${email} is not one.`,
    );
  }
}

export function assignLicense(store: Store, poolId: string, input: AssignInput): StoredLicense {
  const pool = requirePool(store, poolId);
  const now = store.now();
  const today = calendarDayOf(now);
  if (toMs(pool.end) <= now.getTime()) {
    throw badRequest('pool_ended', `Pool ${pool.id} ended on ${calendarDayOf(pool.end)}; it has no licenses to give.`);
  }
  const start = later(formatDateTime(now), pool.start);
  let end = pool.end;
  if (input.endDate !== undefined) {
    if (input.endDate < today) throw badRequest('date_in_past', `The end date ${input.endDate} is in the past.`);
    if (input.endDate < calendarDayOf(pool.start)) {
      throw badRequest(
        'date_before_pool_start',
        `The end date ${input.endDate} is before pool ${pool.id} starts (${calendarDayOf(pool.start)}).`,
      );
    }
    end = endWithinPool(pool, input.endDate);
  }
  checkDomain(store, pool, input.email);
  const student = findStudentByEmail(store, input.email);
  if (student) {
    const enrolled = [...store.licenses.values()].some(
      (l) => l.studentId === student.id && isActive(store, l) && store.pools.get(l.poolId)?.courseId === pool.courseId,
    );
    if (enrolled) {
      throw badRequest('student_already_enrolled', `${student.email} already has an active license for this course.`);
    }
  }
  if (pool.licenses - seatsTaken(store, pool) <= 0) {
    if (!input.recycle) {
      const hint = pool.transferable ? ' Send recycle: true to revoke the oldest license and reuse its seat.' : '';
      throw badRequest('no_license_available', `Pool ${pool.id} has no available license.${hint}`);
    }
    if (!pool.transferable) {
      throw badRequest(
        'pool_not_transferable',
        `Pool ${pool.id} is not transferable, so its licenses cannot be recycled.`,
      );
    }
    const oldest = oldestActiveLicense(store, pool.id);
    if (!oldest) throw badRequest('no_license_available', `Pool ${pool.id} has no license to recycle.`);
    revoke(store, oldest);
  }
  const holder = student ?? createStudent(store, input.email, input.name ?? 'Student');
  const license: StoredLicense = {
    id: store.nextLicenseId(),
    poolId: pool.id,
    studentId: holder.id,
    start,
    end,
    active: true,
  };
  store.licenses.set(license.id, license);
  return license;
}

function createStudent(store: Store, email: string, name: string): { id: string } {
  const student = { id: store.nextStudentId(), name, email };
  store.students.set(student.id, student);
  return student;
}

function revoke(store: Store, license: StoredLicense): void {
  license.active = false;
  license.end = formatDateTime(store.now());
}

function requireChangeable(store: Store, license: StoredLicense, action: 'changed' | 'revoked'): void {
  if (isExpired(store, license)) {
    throw badRequest(
      'license_expired',
      `License ${license.id} expired on ${calendarDayOf(license.end)}; it cannot be ${action}.`,
    );
  }
  if (!license.active) {
    throw badRequest('license_inactive', `License ${license.id} is no longer active; it cannot be ${action}.`);
  }
}

/** PATCH /v1/license/{id}, rules 1-4 of licensing-api.md. */
export function changeLicenseEnd(store: Store, licenseId: string, day: string): StoredLicense {
  const license = requireLicense(store, licenseId);
  const pool = requirePool(store, license.poolId);
  if (!pool.transferable) {
    throw badRequest(
      'pool_not_transferable',
      `License ${license.id} comes from untransferable pool ${pool.id}; its end date cannot be changed.`,
    );
  }
  requireChangeable(store, license, 'changed');
  if (day < calendarDayOf(store.now())) {
    // Rule 3: a past date expires the license for good. Its end records that day (never before its start),
    // and a transferable pool gets the seat back like any inactive license.
    license.active = false;
    license.end = later(endOfDay(day), license.start);
    return license;
  }
  license.end = endWithinPool(pool, day);
  return license;
}

/**
 * DELETE /v1/license/{id}. Only active licenses of transferable pools are revokable: an untransferable
 * license "cannot be returned to the pool" (licensing-api.md), so it is refused, not silently kept.
 */
export function revokeLicense(store: Store, licenseId: string): StoredLicense {
  const license = requireLicense(store, licenseId);
  const pool = requirePool(store, license.poolId);
  requireChangeable(store, license, 'revoked');
  if (!pool.transferable) {
    throw badRequest(
      'license_not_revokable',
      `License ${license.id} comes from untransferable pool ${pool.id}; it cannot be revoked.`,
    );
  }
  revoke(store, license);
  return license;
}
