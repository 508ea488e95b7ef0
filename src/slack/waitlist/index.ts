import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { createWaitlistButtonHandler, WAITLIST_CLICKS, type WaitlistClick } from './actions.js';

/** Registration only: the waitlist's buttons (App Home and `/licenses waitlist`). */
export function registerWaitlist(app: App, deps: AppDeps): void {
  for (const [click, actionId] of Object.entries(WAITLIST_CLICKS) as [WaitlistClick, string][]) {
    app.action<BlockAction<ButtonAction>>(actionId, createWaitlistButtonHandler(deps, click));
  }
}
