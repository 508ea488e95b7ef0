import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { AppDeps } from '../deps.js';
import { CHANGE_ACTION_IDS, NAV_ACTION_IDS } from '../ids.js';
import { createComingSoonHandler } from './coming-soon.js';
import { createNavigationHandler } from './navigate.js';

/** Registration only. Issue 5 replaces the coming-soon listener of the change buttons. */
export function registerActions(app: App, deps: AppDeps): void {
  const navigate = createNavigationHandler(deps);
  for (const id of NAV_ACTION_IDS) app.action<BlockAction<ButtonAction>>(id, navigate);
  const comingSoon = createComingSoonHandler(deps);
  for (const id of CHANGE_ACTION_IDS) app.action<BlockAction<ButtonAction>>(id, comingSoon);
}
