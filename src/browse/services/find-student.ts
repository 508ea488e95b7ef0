/**
 * `find <email>`: one request to GET /v1/student?email= (licensing-api-extras.md). A 404 there means
 * "no such student". Only when the endpoint itself is missing here (405 Method Not Allowed or
 * 501 Not Implemented) do we scan every license instead; that costs one request per 100 licenses.
 * A deployment answering an unknown route with a plain 404 is indistinguishable from "no such
 * student" through the client, so we accept that it reports "not found" rather than scan on every miss.
 */

import type { Student } from '../../kernel/domain/types.js';
import { isEndpointMissing, isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import type { StudentReport, StudentReportRow } from '../domain/student-report.js';

export type FindStudentResult = { found: true; report: StudentReport } | { found: false; email: string };

export function reportFromStudent(student: Student): StudentReport {
  const rows: StudentReportRow[] = student.courses.map((c) => ({
    courseId: c.id,
    title: c.title,
    poolId: c.poolId,
    licenseId: c.licenseId,
    active: c.licenseActive,
    start: c.start,
    end: c.end,
    progress: c.progress,
    completed: c.completed,
  }));
  return { id: student.id, name: student.name, email: student.email, rows, source: 'lookup' };
}

export async function findStudent(licensing: LicensingClient, email: string): Promise<FindStudentResult> {
  try {
    const student = await licensing.students.find({ email }, { ...INTERACTIVE, includeInactive: true });
    return { found: true, report: reportFromStudent(student) };
  } catch (error) {
    if (!isLicensingError(error)) throw error;
    if (error.kind === 'not-found') return { found: false, email };
    if (!isEndpointMissing(error)) throw error;
  }
  return scanForStudent(licensing, email);
}

async function scanForStudent(licensing: LicensingClient, email: string): Promise<FindStudentResult> {
  const wanted = email.toLowerCase();
  const licenses = (await licensing.licenses.all({ includeInactive: true }, INTERACTIVE)).filter(
    (l) => l.student.email.toLowerCase() === wanted,
  );
  const first = licenses[0];
  if (!first) return { found: false, email };
  const pools = new Map((await licensing.pools.list(INTERACTIVE)).map((p) => [p.id, p]));
  const rows = licenses.map((l) => ({
    courseId: l.courseId,
    title: pools.get(l.poolId)?.course.title ?? `course ${l.courseId}`,
    poolId: l.poolId,
    licenseId: l.id,
    active: l.active,
    start: l.start,
    end: l.end,
    progress: null,
    completed: null,
  }));
  return { found: true, report: { ...first.student, rows, source: 'scan' } };
}
