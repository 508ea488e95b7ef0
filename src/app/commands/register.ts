import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { COMMAND, NAV_ACTION_IDS } from '../../kernel/blocks/ids.js';
import type { Surface } from '../../kernel/slack/state.js';
import { createLicensesCommandHandler } from './listener.js';
import { createNavigationHandler } from './navigate.js';

/** Registration only: `/licenses` and its navigation buttons (a table entry answered on click). */
export function registerCommands(app: App, s: Surface): void {
  app.command(COMMAND, createLicensesCommandHandler(s));
  const navigate = createNavigationHandler(s);
  for (const id of NAV_ACTION_IDS) app.action<BlockAction<ButtonAction>>(id, navigate);
}
