/**
 * Sends the offers' notices (docs/leavers-and-offers.md#seats-offered-then-claimed): the offer DM with Claim and "I don't need it", and the
 * DM when an offer lapsed, worded at send time from the offer as it is now. An offer that moved on
 * before its DM went out is not offered any more: its DM is dropped.
 */
import type { webApi } from '@slack/bolt';
import type { AppDeps } from '../../../kernel/slack/deps.js';
import { noticeOf, sendDm } from '../../../kernel/slack/notices.js';
import { buildOfferExpiredMessage, buildOfferMessage } from '../../blocks/offers.js';
import { OFFER_NOTICE_KINDS, type OfferNotice } from '../../domain/offers.js';
import type { Offers } from '../../services/offers.js';

export const isOfferNotice = noticeOf<OfferNotice>(OFFER_NOTICE_KINDS);

export function createOfferNoticeRenderer(client: webApi.WebClient, deps: AppDeps, offers: Offers | undefined) {
  return async (notice: OfferNotice): Promise<void> => {
    const offer = await offers?.get(notice.offerId);
    if (!offer) return;
    if (notice.kind === 'offer-made') {
      if (offer.state !== 'open') return;
      await sendDm(deps, client, offer.requester, buildOfferMessage(offer));
      return;
    }
    await sendDm(deps, client, offer.requester, buildOfferExpiredMessage(offer));
  };
}
