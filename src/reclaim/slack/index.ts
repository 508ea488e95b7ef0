/**
 * Registration only: the reclaim rounds' buttons (docs/reclaim.md). "Start" in the admin's preview
 * passes the gate (admins); "Keep my seat" and "Release it" in a holder's DM need no role: the use
 * case checks that the ask is the clicker's own.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { buildErrorMessage, buildNoticeMessage } from '../../kernel/blocks/common.js';
import { ReclaimActionId } from '../../kernel/blocks/ids.js';
import { BUTTON_GONE, type ClickArgs, onClick } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { slackUserByEmail } from '../../kernel/slack/resolve-user.js';
import type { Surface } from '../../kernel/slack/state.js';
import { holdForSecondAdmin } from '../../two-person/index.js';
import {
  buildReclaimAnswerMessage,
  buildReclaimPreviewMessage,
  buildReclaimStartedMessage,
  decodeReclaimStart,
  RECLAIM_OFF,
} from '../blocks/reclaim.js';
import { heldRound } from './held.js';

export function registerReclaim(app: App, s: Surface): void {
  const { deps } = s;
  const button = (id: string, handler: (args: ClickArgs) => Promise<void>) =>
    app.action<BlockAction<ButtonAction>>(id, handler);

  const start = onClick(s, { need: 'admin' }, async (args, _granted) => {
    const reply = createReplier(args.respond, deps, false);
    const reclaim = deps.reclaim;
    if (!reclaim) return reply.send(buildNoticeMessage(RECLAIM_OFF));
    const chosen = decodeReclaimStart(args.action.value ?? '');
    if (!chosen) return reply.send(buildErrorMessage(BUTTON_GONE));
    try {
      const admin = args.body.user.id;
      const shown = await reclaim.service.preview(chosen.poolId, (email) => slackUserByEmail(args.client, email));
      // Over TWO_PERSON_MIN_ROWS holders the round waits for a second admin (docs/roles-and-approvals.md).
      const held =
        shown.kind === 'preview'
          ? await holdForSecondAdmin(deps, args.client, heldRound(admin, chosen.poolId, chosen.policy, shown))
          : undefined;
      if (held) return reply.send(held.message());
      const outcome =
        shown.kind === 'preview'
          ? await reclaim.service.startPreviewed(admin, chosen.poolId, chosen.policy, shown)
          : shown;
      if (outcome.kind === 'started' || outcome.kind === 'nobody' || outcome.kind === 'already-open')
        await reply.send(buildReclaimStartedMessage(outcome));
      else await reply.send(buildReclaimPreviewMessage(outcome));
    } catch (error) {
      await reply.send(buildErrorMessage(presentError(error, 'pool')));
    }
  });
  button(ReclaimActionId.startRelease, start);
  button(ReclaimActionId.startList, start);

  const answer = (choice: 'keep' | 'release') => async (args: ClickArgs) => {
    await args.ack();
    const reply = createReplier(args.respond, deps, false);
    const reclaim = deps.reclaim;
    if (!reclaim) return reply.send(buildNoticeMessage(RECLAIM_OFF));
    const askId = args.action.value ?? '';
    if (!/^ra[0-9a-f]{16}$/.test(askId)) return reply.send(buildErrorMessage(BUTTON_GONE));
    try {
      const outcome = await reclaim.service.answer(askId, args.body.user.id, choice);
      await reply.send(buildReclaimAnswerMessage(outcome));
    } catch (error) {
      deps.logger.error('reclaim answer failed', { askId, error: String(error) });
      await reply.send(buildErrorMessage(presentError(error, 'license')));
    }
  };
  button(ReclaimActionId.keep, answer('keep'));
  button(ReclaimActionId.release, answer('release'));
}
