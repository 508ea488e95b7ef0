/**
 * Reading back an assign whose answer was lost: the student's active license in the pool, if the write
 * took. Used by every settler of an assign left in flight (a change, a bulk line, a request, a waitlist
 * seat), so it lives in the kernel beside the write ledger.
 */
import type { License, Student, StudentCourse } from '../../domain/types.js';
import { isEndpointMissing, isLicensingError } from '../../licensing/errors.js';
import type { Priority } from '../../licensing/limiter.js';
import type { LicensingClient } from '../../licensing/types.js';

export function licenseFrom(student: Student, course: StudentCourse): License {
  return {
    id: course.licenseId,
    poolId: course.poolId,
    courseId: course.id,
    start: course.start,
    end: course.end,
    active: course.licenseActive,
    revokable: course.licenseRevokable,
    editable: course.licenseEditable,
    student: { id: student.id, name: student.name, email: student.email },
  };
}

/**
 * Did the assign land? The student's active license from this pool, or undefined when there is none:
 * the one read-back rule for the single assign and the bulk runner. One GET /v1/student, where a 404 is
 * "no such student", so nothing landed. Only when that endpoint is missing (405/501, as in
 * find-student) are the pool's active licenses read instead.
 */
export async function readBackAssign(
  licensing: LicensingClient,
  poolId: string,
  email: string,
  priority: Priority,
): Promise<License | undefined> {
  try {
    const student = await licensing.students.find({ email }, { priority });
    const course = student.courses.find((c) => c.poolId === poolId && c.licenseActive);
    return course ? licenseFrom(student, course) : undefined;
  } catch (error) {
    if (!isLicensingError(error)) throw error;
    if (error.kind === 'not-found') return undefined;
    if (!isEndpointMissing(error)) throw error;
  }
  const wanted = email.toLowerCase();
  const licenses = await licensing.pools.allLicenses(poolId, {}, { priority });
  return licenses.find((l) => l.active && l.student.email.toLowerCase() === wanted);
}
