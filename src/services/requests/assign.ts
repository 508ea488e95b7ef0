/**
 * The one place a course request becomes a license, for an approval and for a waitlisted request
 * alike: the assign's rules on fresh reads (the pool still runs and has a seat, the allowed domains of
 * a transferable pool, the student holds no active license for the course, the end date within the
 * pool), then the assign use case of src/services/assign.ts (the write, the read-back of an unclear
 * answer, the audit entry). The license starts when it is assigned, that is at the approval (or when
 * the waitlist gives the seat), never at the request; its end is the pool's.
 */
import { needsRecycle, poolBlocker } from '../../domain/assignment.js';
import type { CourseRequest, RequestAssignOutcome } from '../../domain/requests.js';
import type { Pool } from '../../domain/types.js';
import { isLicensingError } from '../../licensing/errors.js';
import { assign, newcomerProblem } from '../assign.js';
import type { ChangeContext } from '../change-context.js';

export type RequestAssignContext = Pick<ChangeContext, 'licensing' | 'audit' | 'now' | 'work'>;

/** The licensing service's refusal when the seat was taken in between (the sandbox and the real API). */
const NO_SEAT = /no available license|no_license_available/i;

export async function assignForRequest(
  ctx: RequestAssignContext,
  request: CourseRequest,
  approver: string,
): Promise<RequestAssignOutcome> {
  const now = ctx.now();
  // Whose request it is, as structured facts: the audit shows a mention, never an id in a sentence.
  const of = { requester: request.requester, requestId: request.id };
  const refuse = async (text: string, why: string): Promise<RequestAssignOutcome> => {
    await ctx.audit.record({
      at: ctx.now().toISOString(),
      actor: approver,
      action: 'assign',
      outcome: 'refused',
      poolId: request.poolId,
      courseTitle: request.courseTitle,
      ...(request.requesterName ? { studentName: request.requesterName } : {}),
      studentEmail: request.requesterEmail,
      ...of,
      detail: why,
    });
    return { kind: 'refused', text, why };
  };
  let pool: Pool;
  try {
    pool = await ctx.licensing.pools.get(request.poolId, { priority: 'interactive', fresh: true });
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') {
      return refuse(
        `Pool \`${request.poolId}\` no longer exists, so no license was assigned. Deny the request and point the requester to another pool.`,
        'the pool no longer exists',
      );
    }
    return {
      kind: 'failed',
      text: `I could not read pool \`${request.poolId}\` (${describe(error)}); nothing was assigned. Please try again in a minute.`,
    };
  }
  const blocker = poolBlocker(pool, now);
  if (blocker === 'ended') {
    return refuse(
      `The pool \`${pool.id}\` has ended, so no license was assigned. Deny the request, or buy seats in a new pool and ask the requester to request again.`,
      'the pool has ended',
    );
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
    const { text, why } = refusalOf(problem, request);
    return refuse(text, why);
  }
  const result = await assign(ctx, {
    actor: approver,
    params: {
      poolId: pool.id,
      email: request.requesterEmail,
      ...(request.requesterName ? { name: request.requesterName } : {}),
    },
    pool,
    action: 'assign',
    facts: of,
  });
  switch (result.kind) {
    case 'done':
      return { kind: 'assigned', licenseId: result.value.id, endDate: result.value.end };
    case 'refused':
      // Someone took the seat between the read and the write: the pool is full again.
      if (NO_SEAT.test(result.error.message)) return { kind: 'full', transferable: pool.transferable };
      return {
        kind: 'refused',
        text: `The licensing service refused the assign: ${result.error.message}. Nothing was assigned; check the pool with \`/licenses pool ${pool.id}\`, then approve again or deny.`,
        why: `the licensing service refused it (${result.error.message})`,
      };
    case 'failed':
    case 'not-done':
      return {
        kind: 'failed',
        text: `The assign did not go through (${describe(result.error)}); nothing was assigned. Please approve again in a minute.`,
      };
    case 'unknown':
      return {
        kind: 'unknown',
        text: `The licensing service did not answer and I could not check whether the license was assigned. Look with \`/licenses find ${request.requesterEmail}\` before doing anything else.`,
      };
  }
}

function refusalOf(
  problem: NonNullable<Awaited<ReturnType<typeof newcomerProblem>>>,
  r: CourseRequest,
): { text: string; why: string } {
  switch (problem.kind) {
    case 'email':
      return {
        text: `The requester's Slack e-mail is not an address the licensing service accepts, so nothing was assigned. Assign by hand with \`/licenses assign ${r.poolId}\` and their address.`,
        why: 'their Slack e-mail is not a valid address',
      };
    case 'domain': {
      const allowed = problem.allowed.join(', ') || 'no domain yet';
      return {
        text: `Pool \`${r.poolId}\` is transferable, and its licenses may only go to addresses in ${allowed}; the requester's address is elsewhere. Deny the request, or choose an untransferable pool of the course.`,
        why: `their e-mail domain is not allowed in this transferable pool (allowed: ${allowed})`,
      };
    }
    case 'end-date':
      return {
        text: `The pool's end date does not allow a new license now, so nothing was assigned. Deny the request or pick another pool.`,
        why: 'the pool’s end date allows no new license now',
      };
    case 'enrolled':
      return {
        text: `The requester already holds license \`${problem.license.id}\` for this course, so nothing was assigned. Deny the request and tell them, or revoke the old license first.`,
        why: `they already hold an active license for this course (license ${problem.license.id})`,
      };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
