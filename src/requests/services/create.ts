/**
 * A new course request: a repeated Workflow Builder delivery finds the request of the first, the
 * reason, the needed-by date and the requester's limits are checked, then the pool (fresh: it exists
 * and runs) and the requester's open request for it; the request is stored, audited and the
 * approvers and the requester told. One create at a time per requester in this process.
 */
import { randomBytes } from 'node:crypto';
import { poolBlocker } from '../../changes/index.js';
import type { Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import {
  type CourseRequest,
  DEFAULT_REQUEST_LIMITS,
  isFinal,
  neededByProblem,
  type RequestSource,
  reasonProblem,
  requestLimitProblem,
} from '../domain/requests.js';
import type { RequestKernel } from './kernel.js';
import type { RequestService } from './types.js';
import { createLocalPoolLock } from './waitlist.js';

/** How the request was made, for its audit entry. */
const SOURCE_WORDS: Record<RequestSource, string> = {
  command: 'asked with /licenses request',
  home: 'asked from App Home',
  shortcut: 'asked with the shortcut',
  workflow: 'asked through a workflow',
  slackbot: 'asked via Slackbot',
};

export const newRequestId = () => `r${randomBytes(6).toString('hex')}`;

export function createIntake(k: RequestKernel): Pick<RequestService, 'pools' | 'create'> {
  const { opts, store, licensing, audit, factsOf, txn, tell } = k;
  const limits = opts.limits ?? DEFAULT_REQUEST_LIMITS;
  // One create at a time per requester (in this process), so two quick submissions cannot both pass
  // the limits, and a repeated Workflow Builder delivery finds the request of the first.
  const creating = createLocalPoolLock();
  const api: Pick<RequestService, 'pools' | 'create'> = {
    async pools() {
      const pools = await licensing.pools.list({ priority: 'interactive' });
      const now = opts.now();
      return pools.filter((p) => poolBlocker(p, now) !== 'ended' && Date.parse(p.start) <= now.getTime());
    },

    async create(input) {
      const mine = await store.byRequester(input.requester);
      if (input.workflow) {
        // Slack delivers function_executed again when it did not see the answer in time: the same
        // execution id is the same step, whose request already exists.
        const executionId = input.workflow.executionId;
        const same = mine.find((r) => r.workflow?.executionId === executionId);
        if (same) return { ok: true, request: same, repeat: true };
      }
      const reason = input.reason?.trim();
      const tooLong = reason ? reasonProblem(reason) : undefined;
      if (tooLong) return { ok: false, refusal: { kind: 'reason', problem: tooLong } };
      if (input.neededBy) {
        const problem = neededByProblem(input.neededBy, opts.now());
        if (problem) return { ok: false, refusal: { kind: 'needed-by', problem } };
      }
      const limited = requestLimitProblem(mine, limits, opts.now());
      if (limited) {
        await audit({
          actor: input.requester,
          action: 'requested',
          outcome: 'refused',
          poolId: input.poolId,
          detail: `too many requests (${input.source})`,
        });
        return { ok: false, refusal: { kind: 'limited', problem: limited } };
      }
      let pool: Pool;
      try {
        pool = await licensing.pools.get(input.poolId, { priority: 'interactive' });
      } catch (error) {
        if (isLicensingError(error) && error.kind === 'not-found') {
          return { ok: false, refusal: { kind: 'no-pool', poolId: input.poolId } };
        }
        throw error;
      }
      const now = opts.now();
      if (poolBlocker(pool, now) === 'ended' || Date.parse(pool.start) > now.getTime()) {
        return { ok: false, refusal: { kind: 'not-running', poolId: pool.id, courseTitle: pool.course.title } };
      }
      const open = mine.find((r) => r.poolId === pool.id && !isFinal(r.status));
      if (open) {
        return { ok: false, refusal: { kind: 'already-asked', courseTitle: pool.course.title, status: open.status } };
      }
      const afterEnd = input.neededBy ? neededByProblem(input.neededBy, now, pool.end) : undefined;
      if (afterEnd) return { ok: false, refusal: { kind: 'needed-by', problem: afterEnd } };
      const request: CourseRequest = {
        id: newRequestId(),
        requester: input.requester,
        requesterEmail: input.requesterEmail,
        ...(input.requesterName ? { requesterName: input.requesterName } : {}),
        poolId: pool.id,
        courseTitle: pool.course.title,
        ...(reason ? { reason } : {}),
        ...(input.neededBy ? { neededBy: input.neededBy } : {}),
        createdAt: now.toISOString(),
        status: 'pending',
        source: input.source,
        ...(input.workflow ? { workflow: input.workflow } : {}),
        cards: [],
        poolEnd: pool.end,
      };
      // Stored and its messages queued in one transaction: a crash after the commit still tells each
      // approver and the requester once (the outbox sends them after the commit, or at the next start).
      await txn(async (trx, s) => {
        await s.put(request);
        const notice = { kind: 'request-received', requestId: request.id, freeSeats: pool.availableLicenses } as const;
        await tell(trx, notice, `request:${request.id}:received`);
      });
      await audit({
        actor: input.requester,
        action: 'requested',
        outcome: 'done',
        ...factsOf(request),
        detail: SOURCE_WORDS[input.source],
      });
      return { ok: true, request: (await store.get(request.id)) ?? request };
    },
  };
  // One create at a time per requester: the limits and a repeated workflow delivery see the one before.
  const createNow = api.create;
  api.create = (input) => creating.run(input.requester, () => createNow(input));
  return api;
}
