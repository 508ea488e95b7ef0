/**
 * The one confirmation pushed over the list: Approve selected states the count and, per pool with
 * fewer free seats than requests selected, what happens to the rest (the waitlist when it runs, else
 * their cards); Deny selected asks for one reason. Then the view that says the work has started. Pure.
 */
import { ApprovalsCallbackId, ApprovalsInputId } from '../../kernel/blocks/ids.js';
import { context, section } from '../../kernel/blocks/kit.js';
import { compactView, input, type ModalView, modal } from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, truncate } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import { MAX_REASON_RAW } from '../../requests/index.js';
import type { PoolPlan } from '../domain/plan.js';
import { encodeSelection } from '../domain/selection.js';

export const CONFIRM_TITLE = 'Approve selected';
export const DENY_MANY_TITLE = 'Deny selected';

/** "Pool 2002 (Mastering DAX) has 3 free seats for 5 requests: the 3 oldest are assigned, the other 2 go to the waitlist." */
export function shortfallSentence(plan: PoolPlan, waitlist: boolean): string {
  const pool = `Pool ${plan.poolId} (${plan.courseTitle})`;
  const seats = count(plan.free ?? 0, 'free seat');
  const assigned =
    plan.assigned === 0
      ? 'none is assigned'
      : plan.assigned === 1
        ? 'the oldest is assigned'
        : `the ${plan.assigned} oldest are assigned`;
  const rest = plan.assigned === 0 ? (plan.rest === 1 ? 'it' : `all ${plan.rest}`) : `the other ${plan.rest}`;
  const verb = plan.rest === 1 && plan.assigned > 0 ? 'goes' : 'go';
  const then = waitlist
    ? `${rest} ${verb} to the waitlist`
    : `${rest} get${plan.rest === 1 && plan.assigned > 0 ? 's' : ''} no seat and stay${plan.rest === 1 && plan.assigned > 0 ? 's' : ''} on ${plan.rest === 1 ? 'its card' : 'their cards'} for you to free a seat or deny`;
  return `${pool} has ${seats} for ${count(plan.selected, 'request')}: ${assigned}, ${then}.`;
}

export interface ConfirmInput {
  ids: string[];
  plans: readonly PoolPlan[];
  waitlist: boolean;
  /** Selected requests decided or gone since they were listed: they will be skipped. */
  skipped: number;
}

export function buildConfirmApproveModal({ ids, plans, waitlist, skipped }: ConfirmInput): ModalView {
  const n = ids.length;
  const short = plans.filter((p) => p.rest > 0 && p.free !== undefined);
  const unknown = plans.filter((p) => p.free === undefined);
  const lines = [
    ...short.map((p) => `• ${escapeMrkdwn(shortfallSentence(p, waitlist))}`),
    ...unknown.map(
      (p) =>
        `• ${escapeMrkdwn(`The free seats of pool ${p.poolId} (${p.courseTitle}) could not be read: the licensing service decides each in turn, and a request that finds the pool full ${waitlist ? 'goes to the waitlist' : 'stays on its card'}.`)}`,
    ),
  ];
  return modal({
    callbackId: ApprovalsCallbackId.confirmApprove,
    title: CONFIRM_TITLE,
    submit: `Approve ${n}`,
    close: 'Back',
    privateMetadata: encodeSelection({ page: 0, ids }),
    blocks: compactView([
      section(
        `Approve *${count(n, 'request')}* in ${count(plans.length, 'pool')}? Each is one license assigned in turn, oldest first, at the licensing service's pace; each requester is told once.`,
      ),
      lines.length > 0 ? section(truncate(lines.join('\n'), 3000)) : undefined,
      skipped > 0
        ? context(
            `${count(skipped, 'selected request was', 'selected requests were')} decided meanwhile and will be skipped.`,
          )
        : undefined,
      context('I send you the progress by DM, with what each came to.'),
    ]),
  });
}

export function buildConfirmDenyModal(ids: string[]): ModalView {
  return modal({
    callbackId: ApprovalsCallbackId.confirmDeny,
    title: DENY_MANY_TITLE,
    submit: `Deny ${ids.length}`,
    close: 'Back',
    privateMetadata: encodeSelection({ page: 0, ids }),
    blocks: [
      section(`Deny *${count(ids.length, 'request')}*? Each requester is told once, with the reason below.`),
      input(
        ApprovalsInputId.denyReason.block,
        'Reason',
        { type: 'plain_text_input', action_id: ApprovalsInputId.denyReason.action, max_length: MAX_REASON_RAW },
        { hint: 'One reason for all of them, shown to each requester.' },
      ),
    ],
  });
}

/** After the confirmation: the work runs in the background and its progress comes by DM. */
export function startedText(kind: 'approve' | 'deny', n: number): string {
  const what = kind === 'approve' ? 'Approving' : 'Denying';
  return `:hourglass_flowing_sand: ${what} ${count(n, 'request')} in the background, oldest first. I'm sending you the progress by DM.`;
}
