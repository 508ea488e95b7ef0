/**
 * Assigning a license (POST /v1/pool/{id}/license) and what we check cheaply around it. Every call is
 * at interactive priority: a person is waiting in Slack.
 */

import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { parseEmail } from '../../kernel/domain/email.js';
import type { AssignRequest, License, Pool, Student } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { tracked } from '../../kernel/services/work-tracker.js';
import { type AssignIntentBody, recordedWrite } from '../../kernel/services/writes/ledger.js';
import { auditOf, runWrite, type WriteOutcome } from '../../kernel/services/writes/outcome.js';
import { licenseFrom, readBackAssign } from '../../kernel/services/writes/read-back.js';
import { activeEnrollment, validateAssignment } from '../domain/assignment.js';
import type { NewcomerProblem } from '../domain/change-refusal.js';
import type { ChangeContext } from './change-context.js';

export interface AssignParams {
  poolId: string;
  email: string;
  name?: string;
  endDate?: string;
  recycle?: boolean;
}

async function findStudentOrNone(licensing: LicensingClient, email: string): Promise<Student | undefined> {
  try {
    return await licensing.students.find({ email }, INTERACTIVE);
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return undefined;
    throw error;
  }
}

/**
 * The student's active license for the course, if any: one GET /v1/student (rule 2 of assign, seen
 * before the write). Throws on a failed read; the caller decides whether to go on without it.
 */
export async function findActiveEnrollment(
  licensing: LicensingClient,
  email: string,
  courseId: string,
  now: Date,
): Promise<License | undefined> {
  return (await studentAndEnrollment(licensing, email, courseId, now)).license;
}

/**
 * As findActiveEnrollment, and whether the licensing service knows the student at all (`known`): a
 * known student keeps the name it has, so an assign needs none (one GET /v1/student).
 */
export async function studentAndEnrollment(
  licensing: LicensingClient,
  email: string,
  courseId: string,
  now: Date,
): Promise<{ known: boolean; license?: License }> {
  const student = await findStudentOrNone(licensing, email);
  const course = student ? activeEnrollment(student.courses, courseId, now) : undefined;
  return student && course ? { known: true, license: licenseFrom(student, course) } : { known: student !== undefined };
}

export type { NewcomerProblem };

/**
 * The assign's own rules for the newcomer, on reads made now (the e-mail and date came back from a
 * form or a button, and may have been altered): an e-mail, an allowed domain for a transferable pool
 * (me, from the read cache), an end date within the pool, and no active license for the course yet
 * (one GET /v1/student). Checked before any write that cannot be taken back, such as a revoke.
 */
export async function newcomerProblem(
  licensing: LicensingClient,
  pool: Pool,
  params: Pick<AssignParams, 'email' | 'endDate'>,
  now: Date,
): Promise<NewcomerProblem | undefined> {
  const email = parseEmail(params.email);
  if (!email) return { kind: 'email' };
  const input = {
    pool,
    email,
    endDate: params.endDate,
    allowedDomains: await licensing.allowedDomains(INTERACTIVE),
    recycle: true,
  };
  for (const p of validateAssignment(input, now)) {
    if (p.field === 'email') return { kind: 'domain', allowed: p.allowed };
    if (p.field === 'endDate') return { kind: 'end-date', problem: p.kind, poolEnd: p.poolEnd };
  }
  const license = await findActiveEnrollment(licensing, email, pool.course.id, now);
  return license ? { kind: 'enrolled', license } : undefined;
}

export function assignLicense(licensing: LicensingClient, params: AssignParams): Promise<WriteOutcome<License>> {
  const body: AssignRequest = { email: params.email };
  if (params.name) body.name = params.name;
  if (params.endDate) body.endDate = params.endDate;
  if (params.recycle) body.recycle = true;
  return runWrite(
    () => licensing.pools.assign(params.poolId, body, INTERACTIVE),
    () => readBackAssign(licensing, params.poolId, params.email, 'interactive'),
  );
}

export interface AssignCall {
  actor: string;
  params: AssignParams;
  /** The pool as the form saw it, for the audit's course title; undefined without one. */
  pool: Pool | undefined;
  /** 'recycle' when the assign frees a seat (`recycle: true`) or fills one freed for it. */
  action: 'assign' | 'recycle';
  /** Extra words for the audit entry (e.g. which license was revoked to free the seat). */
  detail?: string | undefined;
  /** Extra facts for the audit entry (e.g. whose course request it carries out). */
  facts?: Pick<AuditEntry, 'requester' | 'requestId'>;
}

/**
 * Assigns one license, audited: the write, the read-back after an unclear answer (one GET
 * /v1/student, readBackAssign) and the audit entry. The form's rules ran before (the caller's
 * pre-checks); the licensing API applies them again and its refusal comes back as `refused`.
 */
export async function assign(ctx: ChangeContext, req: AssignCall): Promise<WriteOutcome<License>> {
  const { params } = req;
  // A course request's assign records its own intent (the request's); the admin's is recorded here.
  const ledger = req.facts?.requestId ? undefined : ctx.writes;
  const body: AssignIntentBody = {
    action: req.action,
    params,
    ...(req.pool ? { courseTitle: req.pool.course.title } : {}),
    ...(req.detail ? { detail: req.detail } : {}),
  };
  const intent = { kind: 'assign', owner: req.actor, subject: params.email, poolId: params.poolId, body } as const;
  const { write, open } = await tracked(ctx.work, 'write', `${req.action} in pool ${params.poolId}`, () =>
    recordedWrite(ledger, intent, () => assignLicense(ctx.licensing, params)),
  );
  const license = write.kind === 'done' ? write.value : undefined;
  const studentName = license?.student.name ?? params.name;
  const facts = {
    poolId: params.poolId,
    ...(license ? { licenseId: license.id } : {}),
    ...(req.pool ? { courseTitle: req.pool.course.title } : {}),
    ...(license?.student.name || params.name ? { studentName } : {}),
    studentEmail: params.email,
    ...req.facts,
    ...(req.detail ? { detail: req.detail } : {}),
  };
  await ctx.audit.record(auditOf(req.action, req.actor, write, facts, ctx.now(), 'pool'));
  await open.end(write);
  return write;
}
