/**
 * What the API answers with, built from the store on every read: pool counters are derived from the
 * licenses, never stored, so they cannot drift.
 */
import type { Course, License, Me, Pool, PoolSummary, Student, StudentCourse } from '../../src/kernel/domain/types.js';
import {
  asJsonNumber,
  byId,
  isActive,
  progressKey,
  type Store,
  type StoredLicense,
  type StoredPool,
  type StoredStudent,
  seatsTaken,
  storeIndex,
} from './store.js';

function summary(store: Store, pool: StoredPool): Omit<PoolSummary, 'id'> {
  const assigned = seatsTaken(store, pool);
  return {
    start: pool.start,
    end: pool.end,
    transferable: pool.transferable,
    licenses: pool.licenses,
    assignedLicenses: assigned,
    availableLicenses: pool.licenses - assigned,
  };
}

export function courseTitle(store: Store, courseId: string): string {
  return store.courses.get(courseId)?.title ?? '';
}

export function poolView(store: Store, pool: StoredPool): Pool {
  const { start, end, transferable, licenses, assignedLicenses, availableLicenses } = summary(store, pool);
  return {
    id: pool.id,
    course: { id: pool.courseId, title: courseTitle(store, pool.courseId) },
    start,
    end,
    transferable,
    licenses,
    assignedLicenses,
    availableLicenses,
  };
}

/** revokable and editable follow the rules of rules.ts exactly: both need an active license of a transferable pool. */
export function canChange(store: Store, license: StoredLicense): boolean {
  return isActive(store, license) && store.pools.get(license.poolId)?.transferable === true;
}

export function licenseView(store: Store, license: StoredLicense): License {
  const student = store.students.get(license.studentId);
  const pool = store.pools.get(license.poolId);
  return {
    id: license.id,
    poolId: license.poolId,
    courseId: pool?.courseId ?? '',
    start: license.start,
    end: license.end,
    active: isActive(store, license),
    revokable: canChange(store, license),
    editable: canChange(store, license),
    student: { id: license.studentId, name: student?.name ?? '', email: student?.email ?? '' },
  };
}

/** Wire shapes: where the real service sends JSON numbers (licensing-api-extras.md). */
export type WirePoolSummary = Omit<PoolSummary, 'id'> & { id: number | string };
export type WireCourse = Omit<Course, 'pools'> & { pools: WirePoolSummary[] };
export type WireMe = Omit<Me, 'id'> & { id: number | string };

export function courseView(store: Store, courseId: string): WireCourse | undefined {
  const course = store.courses.get(courseId);
  if (!course) return undefined;
  const pools = [...store.pools.values()].filter((p) => p.courseId === courseId).sort(byId);
  // The extras' example nests pool ids as JSON numbers inside a course; the course id stays a string.
  const summaries = pools.map((p) => ({ id: asJsonNumber(p.id), ...summary(store, p) }));
  const sum = (f: (s: (typeof summaries)[number]) => number): number => summaries.reduce((n, s) => n + f(s), 0);
  return {
    id: course.id,
    title: course.title,
    licenses: sum((s) => s.licenses),
    assignedLicenses: sum((s) => s.assignedLicenses),
    availableLicenses: sum((s) => s.availableLicenses),
    pools: summaries,
  };
}

export function studentView(store: Store, student: StoredStudent, includeInactive: boolean): Student {
  const courses: StudentCourse[] = (storeIndex(store).byStudent.get(student.id) ?? [])
    .filter((l) => includeInactive || isActive(store, l))
    .map((l) => {
      const courseId = store.pools.get(l.poolId)?.courseId ?? '';
      const progress = store.progress.get(progressKey(student.id, courseId));
      return {
        id: courseId,
        title: courseTitle(store, courseId),
        poolId: l.poolId,
        licenseId: l.id,
        licenseActive: isActive(store, l),
        licenseRevokable: canChange(store, l),
        licenseEditable: canChange(store, l),
        start: l.start,
        end: l.end,
        progress: progress?.progress ?? 0,
        completed: progress?.completed ?? null,
      };
    });
  return { id: student.id, name: student.name, email: student.email, courses };
}

export function meView(store: Store): WireMe {
  const pools = [...store.pools.values()];
  const total = (transferable?: boolean): number =>
    pools
      .filter((p) => transferable === undefined || p.transferable === transferable)
      .reduce((n, p) => n + p.licenses, 0);
  return {
    id: asJsonNumber(store.me.id),
    name: store.me.name,
    email: store.me.email,
    pools: pools.length,
    licenses: total(),
    untransferableLicenses: total(false),
    transferableLicenses: total(true),
    allowedDomainsForTransferableLicenses: [...store.me.allowedDomainsForTransferableLicenses],
  };
}
