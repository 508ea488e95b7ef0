/**
 * The one place a course request becomes a license: today's assign service with every rule checked
 * on fresh reads (the pool still runs and has a seat, the allowed domains of a transferable pool, the
 * student holds no active license for the course, the end date within the pool), the write, the
 * read-back of an unclear answer, and the audit entry. The end date is the pool's end as read now,
 * and the license starts now: its duration counts from the approval, not from the request.
 */
import { needsRecycle, poolBlocker } from '../../domain/assignment.js';
import type { CourseRequest, RequestAssignOutcome } from '../../domain/requests.js';
import type { Pool } from '../../domain/types.js';
import { isLicensingError } from '../../licensing/errors.js';
import type { LicensingClient } from '../../licensing/types.js';
import { assignLicense, newcomerProblem } from '../assign.js';
import type { AuditLog } from '../audit.js';
import { tracked, type WorkTracker } from '../work-tracker.js';

export interface RequestAssignContext {
  licensing: LicensingClient;
  audit: Pick<AuditLog, 'record'>;
  now: () => Date;
  work?: WorkTracker | undefined;
}

export async function assignForRequest(
  ctx: RequestAssignContext,
  request: CourseRequest,
  approver: string,
): Promise<RequestAssignOutcome> {
  const now = ctx.now();
  const facts = {
    poolId: request.poolId,
    courseTitle: request.courseTitle,
    studentEmail: request.requesterEmail,
    detail: `course request ${request.id} by <@${request.requester}>`,
  };
  const audit = (outcome: 'done' | 'refused' | 'failed' | 'unknown', more: { licenseId?: string; why?: string }) =>
    ctx.audit.record({
      at: ctx.now().toISOString(),
      actor: approver,
      action: 'assign',
      outcome,
      ...facts,
      ...(more.licenseId ? { licenseId: more.licenseId } : {}),
      ...(more.why ? { detail: `${facts.detail}; ${more.why}` } : {}),
    });
  let pool: Pool;
  try {
    pool = await ctx.licensing.pools.get(request.poolId, { priority: 'interactive', fresh: true });
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') {
      const text = `Pool \`${request.poolId}\` no longer exists, so no license was assigned. Deny the request and point the requester to another pool.`;
      await audit('refused', { why: 'the pool no longer exists' });
      return { kind: 'refused', text };
    }
    return {
      kind: 'failed',
      text: `I could not read pool \`${request.poolId}\` (${describe(error)}); nothing was assigned. Please try again in a minute.`,
    };
  }
  const blocker = poolBlocker(pool, now);
  if (blocker === 'ended') {
    await audit('refused', { why: 'the pool has ended' });
    return {
      kind: 'refused',
      text: `The pool \`${pool.id}\` has ended, so no license was assigned. Deny the request, or buy seats in a new pool and ask the requester to request again.`,
    };
  }
  if (blocker === 'full-untransferable' || needsRecycle(pool)) return { kind: 'full', transferable: pool.transferable };

  let problem: Awaited<ReturnType<typeof newcomerProblem>>;
  try {
    problem = await newcomerProblem(ctx.licensing, pool, { email: request.requesterEmail }, now);
  } catch (error) {
    return {
      kind: 'failed',
      text: `I could not check the rules for this request (${describe(error)}); nothing was assigned. Please try again in a minute.`,
    };
  }
  if (problem) {
    const text = refusalOf(problem, request);
    await audit('refused', { why: text });
    return { kind: 'refused', text };
  }
  const result = await tracked(ctx.work, 'write', `request assign in pool ${pool.id}`, () =>
    assignLicense(ctx.licensing, { poolId: pool.id, email: request.requesterEmail }),
  );
  switch (result.kind) {
    case 'done':
      await audit('done', { licenseId: result.value.id });
      return { kind: 'assigned', licenseId: result.value.id, endDate: result.value.end };
    case 'refused':
      await audit('refused', { why: result.error.message });
      return {
        kind: 'refused',
        text: `The licensing service refused the assign: ${result.error.message}. Nothing was assigned; check the pool with \`/licenses pool ${pool.id}\`, then approve again or deny.`,
      };
    case 'failed':
    case 'not-done':
      await audit('failed', { why: describe(result.error) });
      return {
        kind: 'failed',
        text: `The assign did not go through (${describe(result.error)}); nothing was assigned. Please approve again in a minute.`,
      };
    case 'unknown':
      await audit('unknown', { why: describe(result.error) });
      return {
        kind: 'unknown',
        text: `The licensing service did not answer and I could not check whether the license was assigned. Look with \`/licenses find ${request.requesterEmail}\` before doing anything else.`,
      };
  }
}

function refusalOf(problem: NonNullable<Awaited<ReturnType<typeof newcomerProblem>>>, r: CourseRequest): string {
  switch (problem.kind) {
    case 'email':
      return `The requester's Slack e-mail is not an address the licensing service accepts, so nothing was assigned. Assign by hand with \`/licenses assign ${r.poolId}\` and their address.`;
    case 'domain':
      return `Pool \`${r.poolId}\` is transferable, and its licenses may only go to addresses in ${problem.allowed.join(', ') || 'no domain yet'}; the requester's address is elsewhere. Deny the request, or choose an untransferable pool of the course.`;
    case 'end-date':
      return `The pool's end date does not allow a new license now, so nothing was assigned. Deny the request or pick another pool.`;
    case 'enrolled':
      return `The requester already holds license \`${problem.license.id}\` for this course, so nothing was assigned. Deny the request and tell them, or revoke the old license first.`;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
