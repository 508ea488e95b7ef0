/**
 * Approve selected and Deny selected, carried out in the background after the confirmation: one
 * request at a time, oldest first, each through the same use case as a single click on its card
 * (approve: the requester asked fresh, the first decision wins, the assign's intent recorded before
 * its one paced licensing write, the requester told once through the outbox, an unclear answer read
 * back and settled after a fault; deny: the same denial with the one reason). An approval for a full
 * pool goes to the waitlist when it runs, as the card's "Add to the waitlist" would. A request decided
 * meanwhile by someone else is skipped and counted as such. A stop ends the run after its current
 * request; the rest stay waiting.
 */
import type { CourseRequest, DecideOutcome } from '../../requests/index.js';
import type { DecisionLine, DecisionResult, Tally } from '../domain/plan.js';
import type { ApprovalsPorts } from './waiting.js';

export interface DecideManyInput {
  kind: 'approve' | 'deny';
  /** The requests checked by checkSelection, oldest first. */
  requests: readonly CourseRequest[];
  actor: string;
  reason?: string;
  /** Ids selected that no longer exist: counted as skipped. */
  gone?: readonly string[];
}

export interface DecideManyHooks {
  /** After each decision (the tally so far). */
  step?(tally: Tally): Promise<void>;
  /** True once the process is stopping: the run ends after its current request. */
  stopping?(): boolean;
}

export async function decideMany(ports: ApprovalsPorts, input: DecideManyInput, hooks: DecideManyHooks = {}) {
  const gone = input.gone ?? [];
  const tally: Tally = { kind: input.kind, total: input.requests.length + gone.length, lines: [] };
  for (const requestId of gone) {
    tally.lines.push({ requestId, requester: '', courseTitle: '', result: 'skipped', why: 'it no longer exists' });
  }
  for (const request of input.requests) {
    if (hooks.stopping?.()) {
      tally.ended = 'stopped';
      return tally;
    }
    tally.lines.push(await decideOne(ports, input, request));
    await hooks.step?.(tally);
  }
  tally.ended = 'done';
  return tally;
}

async function decideOne(ports: ApprovalsPorts, input: DecideManyInput, request: CourseRequest): Promise<DecisionLine> {
  const line = (result: DecisionResult, why?: string): DecisionLine => ({
    requestId: request.id,
    requester: request.requester,
    courseTitle: request.courseTitle,
    result,
    ...(why ? { why } : {}),
  });
  try {
    if (input.kind === 'deny')
      return line(...resultOf(await ports.requests.deny(request.id, input.actor, input.reason)));
    const outcome = await ports.requests.approve(request.id, input.actor);
    if (outcome.kind === 'full' && outcome.waitlist) {
      const joined = await ports.requests.toWaitlist(request.id, input.actor);
      if (joined.kind === 'joined' || joined.kind === 'in-line') return line('waitlisted');
      if (joined.kind === 'assigning') return line('assigned');
      return line('awaiting-seat', 'the pool is full and it could not join the waitlist');
    }
    return line(...resultOf(outcome));
  } catch (error) {
    ports.logger.warn('approvals: a decision failed', { request: request.id, error: String(error) });
    return line('failed', 'its record could not be read or written');
  }
}

/** What a single decision's outcome counts as in the tally, and why when it was not done. */
function resultOf(outcome: DecideOutcome): [DecisionResult, string?] {
  switch (outcome.kind) {
    case 'assigned':
      return ['assigned'];
    case 'denied':
      return ['denied'];
    case 'full':
      return ['awaiting-seat', 'the pool is full: its card offers to free a seat'];
    case 'already':
      return ['skipped', `decided meanwhile (${outcome.request.status})`];
    case 'not-found':
      return ['skipped', 'it no longer exists'];
    case 'own':
      return ['failed', 'nobody may decide their own request'];
    case 'requester-gone':
    case 'requester-unknown':
      return ['failed', outcome.why];
    case 'not-recorded':
      return ['failed', 'the records did not answer; nothing was sent'];
    case 'unrecorded':
      return ['unknown', 'sent, but its outcome is recorded once the records answer again'];
    case 'not-assigned':
      return outcome.outcome.kind === 'unknown'
        ? ['unknown', 'the licensing service did not answer: it is read back and the requester told then']
        : ['failed', outcome.outcome.why];
  }
}
