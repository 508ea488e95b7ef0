/**
 * Claim and "I don't need it" on a seat offered from the waitlist (docs/leavers-and-offers.md#seats-offered-then-claimed), in the
 * requester's DM. No role is asked: the use case checks that the offer is the clicker's own, and the
 * button value (the offer id) is only a hint. The answer replaces the offer message.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { buildErrorMessage, buildNoticeMessage } from '../../../kernel/blocks/common.js';
import { OfferActionId } from '../../../kernel/blocks/ids.js';
import { BUTTON_GONE, type ClickArgs } from '../../../kernel/slack/gate.js';
import { presentError } from '../../../kernel/slack/present.js';
import { createReplier } from '../../../kernel/slack/reply.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { buildClaimOutcomeMessage, buildDeclineOutcomeMessage } from '../../blocks/offers.js';
import { OFFER_ID } from '../../domain/offers.js';

const OFFERS_OFF = 'Seats from the waitlist are assigned at once here, so there is no offer to answer.';

export function registerOfferButtons(app: App, s: Surface): void {
  const { deps } = s;
  const click = (choice: 'claim' | 'decline') => async (args: ClickArgs) => {
    await args.ack();
    const reply = createReplier(args.respond, deps, false);
    const offers = deps.waitlist?.offers;
    if (!offers) return reply.send(buildNoticeMessage(OFFERS_OFF));
    const offerId = args.action.value ?? '';
    if (!OFFER_ID.test(offerId)) return reply.send(buildErrorMessage(BUTTON_GONE));
    const user = args.body.user.id;
    try {
      if (choice === 'claim') await reply.send(buildClaimOutcomeMessage(await offers.claim(offerId, user)));
      else await reply.send(buildDeclineOutcomeMessage(await offers.decline(offerId, user)));
    } catch (error) {
      deps.logger.error('waitlist offer answer failed', { offerId, choice, error: String(error) });
      await reply.send(buildErrorMessage(presentError(error, 'license')));
    }
  };
  app.action<BlockAction<ButtonAction>>(OfferActionId.claim, click('claim'));
  app.action<BlockAction<ButtonAction>>(OfferActionId.decline, click('decline'));
}
