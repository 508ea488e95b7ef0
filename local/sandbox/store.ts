/**
 * The sandbox's in-memory state, and the rules every view shares (what is active, which seats are taken).
 * Views are in views.ts.
 */
import { normalizeDateTime, toMs } from './dates.js';
import type { SandboxData } from './types.js';

export interface StoredPool {
  id: string;
  courseId: string;
  start: string;
  end: string;
  transferable: boolean;
  licenses: number;
}

export interface StoredLicense {
  id: string;
  poolId: string;
  studentId: string;
  start: string;
  end: string;
  /** false once revoked or expired by a past end date; a license whose `end` passed is inactive too. */
  active: boolean;
}

export interface StoredStudent {
  id: string;
  name: string;
  email: string;
}

export interface Store {
  now(): Date;
  me: SandboxData['me'];
  courses: Map<string, { id: string; title: string }>;
  pools: Map<string, StoredPool>;
  licenses: Map<string, StoredLicense>;
  students: Map<string, StoredStudent>;
  progress: Map<string, { progress: number; completed: string | null }>;
  nextLicenseId(): string;
  nextStudentId(): string;
}

const compareIds = (a: string, b: string): number => {
  const [na, nb] = [Number(a), Number(b)];
  return Number.isFinite(na) && Number.isFinite(nb) && na !== nb ? na - nb : a.localeCompare(b);
};

export const byId = <T extends { id: string }>(a: T, b: T): number => compareIds(a.id, b.id);

/** Identifiers are numeric-looking strings; the assign response sends them as JSON numbers. */
export function asJsonNumber(id: string): number | string {
  return /^\d{1,15}$/.test(id) ? Number(id) : id;
}

export const progressKey = (studentId: string, courseId: string): string => `${studentId}\u0000${courseId}`;

function dateTime(value: string, what: string): string {
  const normalized = normalizeDateTime(value);
  if (normalized === undefined) throw new Error(`Sandbox data: ${what} is not a date-time: ${value}`);
  return normalized;
}

function counter(ids: Iterable<string>, floor: number): () => string {
  let next = floor;
  for (const id of ids) if (/^\d+$/.test(id)) next = Math.max(next, Number(id) + 1);
  return () => String(next++);
}

/** Copies the data (the caller's object is never mutated) and normalises its date-times. */
export function createStore(data: SandboxData, now: () => Date): Store {
  const courses = new Map(data.courses.map((c) => [c.id, { ...c }]));
  const pools = new Map<string, StoredPool>();
  for (const p of data.pools) {
    if (!courses.has(p.course.id)) courses.set(p.course.id, { ...p.course });
    pools.set(p.id, {
      id: p.id,
      courseId: p.course.id,
      start: dateTime(p.start, `pool ${p.id} start`),
      end: dateTime(p.end, `pool ${p.id} end`),
      transferable: p.transferable,
      licenses: p.licenses,
    });
  }
  const students = new Map(data.students.map((s) => [s.id, { ...s }]));
  const licenses = new Map<string, StoredLicense>();
  for (const l of data.licenses) {
    licenses.set(l.id, {
      id: l.id,
      poolId: l.poolId,
      studentId: l.studentId,
      start: dateTime(l.start, `license ${l.id} start`),
      end: dateTime(l.end, `license ${l.id} end`),
      active: l.active,
    });
  }
  const progress = new Map(
    data.progress.map((p) => [
      progressKey(p.studentId, p.courseId),
      { progress: p.progress, completed: p.completed === null ? null : dateTime(p.completed, 'completed') },
    ]),
  );
  return {
    now,
    me: { ...data.me, allowedDomainsForTransferableLicenses: [...data.me.allowedDomainsForTransferableLicenses] },
    courses,
    pools,
    licenses,
    students,
    progress,
    nextLicenseId: counter(licenses.keys(), 5001),
    nextStudentId: counter(students.keys(), 3001),
  };
}

/** Active: not revoked and its end not yet passed (licensing-api.md: "A license also expires when its end passes"). */
export function isActive(store: Store, license: StoredLicense): boolean {
  return license.active && toMs(license.end) > store.now().getTime();
}

/** Expired without being revoked: its end passed. */
export function isExpired(store: Store, license: StoredLicense): boolean {
  return license.active && toMs(license.end) <= store.now().getTime();
}

/**
 * Lookups by pool, student and e-mail, each list in id order. Licenses and students are only ever
 * added (a revoke or an end change edits the license in place), so an index stays right until the
 * counts change; it is rebuilt then. Without it a page of a 50,000-license account scanned every
 * license once per pool or student on it.
 */
export interface StoreIndex {
  licenses: number;
  students: number;
  sortedLicenses: StoredLicense[];
  byPool: Map<string, StoredLicense[]>;
  byStudent: Map<string, StoredLicense[]>;
  sortedStudents: StoredStudent[];
  byEmail: Map<string, StoredStudent>;
}

const indexes = new WeakMap<Store, StoreIndex>();

export function storeIndex(store: Store): StoreIndex {
  const known = indexes.get(store);
  if (known && known.licenses === store.licenses.size && known.students === store.students.size) return known;
  const sortedLicenses = [...store.licenses.values()].sort(byId);
  const byPool = new Map<string, StoredLicense[]>();
  const byStudent = new Map<string, StoredLicense[]>();
  for (const l of sortedLicenses) {
    const inPool = byPool.get(l.poolId);
    if (inPool) inPool.push(l);
    else byPool.set(l.poolId, [l]);
    const held = byStudent.get(l.studentId);
    if (held) held.push(l);
    else byStudent.set(l.studentId, [l]);
  }
  const sortedStudents = [...store.students.values()].sort(byId);
  const byEmail = new Map<string, StoredStudent>();
  for (const s of sortedStudents) if (!byEmail.has(s.email.toLowerCase())) byEmail.set(s.email.toLowerCase(), s);
  const index = {
    licenses: store.licenses.size,
    students: store.students.size,
    sortedLicenses,
    byPool,
    byStudent,
    sortedStudents,
    byEmail,
  };
  indexes.set(store, index);
  return index;
}

export function poolLicenses(store: Store, poolId: string): StoredLicense[] {
  return storeIndex(store).byPool.get(poolId) ?? [];
}

/**
 * Seats in use. A transferable pool gets a seat back whenever a license becomes inactive (revoked,
 * expired by PATCH, or run out). An untransferable pool never does ("a license cannot be returned to
 * the pool", licensing-api.md): every license ever assigned from it keeps its seat.
 */
export function seatsTaken(store: Store, pool: StoredPool): number {
  const licenses = poolLicenses(store, pool.id);
  return pool.transferable ? licenses.filter((l) => isActive(store, l)).length : licenses.length;
}

export function findStudentByEmail(store: Store, email: string): StoredStudent | undefined {
  return storeIndex(store).byEmail.get(email.toLowerCase());
}
