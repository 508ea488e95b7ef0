import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { Surface } from '../../../kernel/slack/state.js';
import { createWaitlistButtonHandler, WAITLIST_CLICKS, type WaitlistClick } from './actions.js';
import { registerOfferButtons } from './offers.js';

/** Registration only: the waitlist's buttons (App Home and `/licenses waitlist`). */
export function registerWaitlist(app: App, s: Surface): void {
  for (const [click, actionId] of Object.entries(WAITLIST_CLICKS) as [WaitlistClick, string][]) {
    app.action<BlockAction<ButtonAction>>(actionId, createWaitlistButtonHandler(s, click));
  }
  registerOfferButtons(app, s);
}
