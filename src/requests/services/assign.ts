/**
 * The one place a course request becomes a license, for an approval and for a waitlisted request
 * alike: the assign's rules on fresh reads (the pool still runs and has a seat, the allowed domains of
 * a transferable pool, the student holds no active license for the course, the end date within the
 * pool), then the assign use case of src/changes/services/assign.ts (the write, the read-back of an unclear
 * answer, the audit entry). The license starts when it is assigned, that is at the approval (or when
 * the waitlist gives the seat), never at the request; its end is the pool's.
 */
import { assign, type ChangeContext, needsRecycle, newcomerProblem, poolBlocker } from '../../changes/index.js';
import type { Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { CourseRequest, RequestAssignOutcome, RequestRefusal } from '../domain/requests.js';

export type RequestAssignContext = Pick<ChangeContext, 'licensing' | 'audit' | 'now' | 'work'> & {
  /** Seats held by live offers to other requests (docs/leavers-and-offers.md#seats-offered-then-claimed): taken, for this request. */
  heldSeats?: (poolId: string, requestId: string) => Promise<number>;
};

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
  const refuse = async (refusal: RequestRefusal, why: string): Promise<RequestAssignOutcome> => {
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
    return { kind: 'refused', refusal, why };
  };
  const read = await readPool(ctx, request.poolId);
  if (read.kind === 'gone') return refuse({ kind: 'pool-gone', poolId: request.poolId }, 'the pool no longer exists');
  if (read.kind === 'failed') return read.outcome;
  const pool = await withoutHeld(ctx, read.pool, request.id);
  const blocker = poolBlocker(pool, now);
  if (blocker === 'ended') {
    return refuse({ kind: 'pool-ended', poolId: pool.id }, 'the pool has ended');
  }
  if (blocker === 'full-untransferable' || needsRecycle(pool)) return { kind: 'full', transferable: pool.transferable };

  let problem: Awaited<ReturnType<typeof newcomerProblem>>;
  try {
    problem = await newcomerProblem(ctx.licensing, pool, { email: request.requesterEmail }, now);
  } catch (error) {
    const error_ = describe(error);
    return {
      kind: 'failed',
      stage: 'rules-read',
      poolId: pool.id,
      error: error_,
      why: `could not check the rules (${error_})`,
    };
  }
  if (problem) {
    const { refusal, why } = refusalOf(problem, request);
    return refuse(refusal, why);
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
  return outcomeOfWrite(result, pool);
}

/** What the assign use case's result comes to for the request. */
function outcomeOfWrite(result: Awaited<ReturnType<typeof assign>>, pool: Pool): RequestAssignOutcome {
  switch (result.kind) {
    case 'done':
      return { kind: 'assigned', licenseId: result.value.id, endDate: result.value.end };
    case 'refused':
      // Someone took the seat between the read and the write: the pool is full again.
      if (NO_SEAT.test(result.error.message)) return { kind: 'full', transferable: pool.transferable };
      return {
        kind: 'refused',
        refusal: { kind: 'api', poolId: pool.id, message: result.error.message },
        why: `the licensing service refused it (${result.error.message})`,
      };
    case 'failed':
    case 'not-done': {
      const error = describe(result.error);
      return {
        kind: 'failed',
        stage: 'write',
        poolId: pool.id,
        error,
        why: `the assign did not go through (${error})`,
      };
    }
    case 'unknown':
      return {
        kind: 'unknown',
        detail: 'the licensing service did not answer and reading back whether the license was assigned failed',
      };
  }
}

/** The pool as this request sees it: the seats held by offers to others are not free for it. */
async function withoutHeld(ctx: RequestAssignContext, pool: Pool, requestId: string): Promise<Pool> {
  const held = (await ctx.heldSeats?.(pool.id, requestId)) ?? 0;
  return held > 0 ? { ...pool, availableLicenses: Math.max(0, pool.availableLicenses - held) } : pool;
}

/** The pool, read fresh: gone (a refusal), or a clear failure to read it. */
async function readPool(
  ctx: RequestAssignContext,
  poolId: string,
): Promise<{ kind: 'read'; pool: Pool } | { kind: 'gone' } | { kind: 'failed'; outcome: RequestAssignOutcome }> {
  try {
    return { kind: 'read', pool: await ctx.licensing.pools.get(poolId, { priority: 'interactive', fresh: true }) };
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return { kind: 'gone' };
    const error_ = describe(error);
    const why = `could not read the pool (${error_})`;
    return { kind: 'failed', outcome: { kind: 'failed', stage: 'pool-read', poolId, error: error_, why } };
  }
}

function refusalOf(
  problem: NonNullable<Awaited<ReturnType<typeof newcomerProblem>>>,
  r: CourseRequest,
): { refusal: RequestRefusal; why: string } {
  switch (problem.kind) {
    case 'email':
      return { refusal: { kind: 'email', poolId: r.poolId }, why: 'their Slack e-mail is not a valid address' };
    case 'domain': {
      const allowed = problem.allowed.join(', ') || 'no domain yet';
      return {
        refusal: { kind: 'domain', poolId: r.poolId, allowed: problem.allowed },
        why: `their e-mail domain is not allowed in this transferable pool (allowed: ${allowed})`,
      };
    }
    case 'end-date':
      return { refusal: { kind: 'end-date' }, why: 'the pool’s end date allows no new license now' };
    case 'enrolled':
      return {
        refusal: { kind: 'enrolled', licenseId: problem.license.id },
        why: `they already hold an active license for this course (license ${problem.license.id})`,
      };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
