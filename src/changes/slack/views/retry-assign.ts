/**
 * "Retry assign" in the result view after a recycle whose assign failed once the seat was freed. A
 * click inside a modal has no response_url (platform.md section 1.3): the answer, a refusal too, goes
 * to the view. The parameters come from the view's private_metadata and are only hints: the use case
 * (services/recycle.ts retryAssign) reads the license named as revoked, the pool's free seat and the
 * newcomer's rules again and sends nothing when one fails.
 */
import { escapeMrkdwn, escapeTruncated } from '../../../kernel/blocks/mrkdwn.js';
import { buildOutcomeModal, buildWorkingModal, type Outcome } from '../../../kernel/blocks/outcome.js';
import { pendingAssignMeta } from '../../../kernel/blocks/values.js';
import { type ClickGate, onClick } from '../../../kernel/slack/gate.js';
import { limitWait } from '../../../kernel/slack/limit-wait.js';
import { presentError } from '../../../kernel/slack/present.js';
import { updateView } from '../../../kernel/slack/slack-io.js';
import { changeContext, type Surface } from '../../../kernel/slack/state.js';
import { RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import { retryRefusalOutcome } from '../../blocks/refusal-text.js';
import { type RetryOutcome, retryAssign } from '../../services/recycle.js';
import { assignWords, finishChange } from './assign-run.js';
import { describeWrite, EXPIRED } from './outcome-text.js';
import { paramsOf } from './recycle-submit.js';
import { notWaiting, seatRefusal } from './request-seat.js';

export function createRetryAssignHandler(s: Surface) {
  const { deps } = s;
  const gate: ClickGate = {
    need: 'admin',
    audit: () => ({ action: 'recycle', via: '(Retry assign)' }),
    // The refusal replaces the result view: the click came from inside the modal.
    tell: async ({ body, client }, verdict) => {
      if (!body.view) return;
      const tone = verdict.reason === 'slack-busy' ? 'failed' : 'refused';
      await updateView(
        deps,
        client,
        body.view.id,
        buildOutcomeModal({ title: RECYCLE_TITLE, tone, headline: verdict.text }),
      );
    },
  };
  return onClick(s, gate, async ({ body, client }) => {
    const view = body.view;
    if (!view) return;
    const meta = pendingAssignMeta.decode(view.private_metadata);
    if (!meta?.revokedLicenseId) {
      await updateView(deps, client, view.id, EXPIRED);
      return;
    }
    const revokedLicenseId = meta.revokedLicenseId;
    // The view changes (and its hash with it) as soon as the first click is at work: a double click repeats the hash.
    if (!(await s.state.once.claim(`retry:${view.id}:${view.hash}`))) return;
    await updateView(
      deps,
      client,
      view.id,
      buildWorkingModal(
        RECYCLE_TITLE,
        `Assigning the free seat to ${escapeTruncated(meta.email, 254)}`,
        limitWait(deps),
      ),
    );
    const run = { viewId: view.id, actor: body.user.id, channel: meta.channelId, title: RECYCLE_TITLE };
    const params = paramsOf(meta);
    const service = deps.requests?.service;
    if (meta.requestId && service) {
      // A course request's seat: through its service, which holds the request 'assigning' meanwhile.
      const how = { kind: 'retry', revokedLicenseId, endDate: meta.endDate } as const;
      const outcome = await service.freeSeat(meta.requestId, run.actor, how);
      const refused = seatRefusal(outcome);
      if (refused || outcome.kind !== 'written' || outcome.result.kind !== 'retry') {
        return finishChange(s, client, run, refused ?? notWaiting(undefined));
      }
      const sent = outcome.params;
      return finishChange(s, client, run, retryOutcomeText(outcome.result.outcome, sent.poolId, sent.email, sent));
    }
    const outcome = await retryAssign(changeContext(s), { actor: run.actor, params, revokedLicenseId });
    await finishChange(s, client, run, retryOutcomeText(outcome, meta.poolId, meta.email, params));
  });
}

function retryOutcomeText(
  outcome: RetryOutcome,
  poolId: string,
  email: string,
  params: ReturnType<typeof paramsOf>,
): Outcome {
  switch (outcome.kind) {
    case 'unread': {
      const headline = `${escapeMrkdwn(presentError(outcome.error, 'pool', 'admin'))} No license was assigned.`;
      return { tone: 'failed', headline };
    }
    case 'refused':
      return retryRefusalOutcome(outcome.refusal, poolId, email);
    case 'written':
      return describeWrite(outcome.write, assignWords(params, outcome.pool));
  }
}
