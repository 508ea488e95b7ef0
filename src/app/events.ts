import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { createLetItEndHandler } from '../alerts/slack/alerts.js';
import { createShowHoldersHandler } from '../digest/slack/digest.js';
import type { HomeSections } from '../home/slack/home.js';
import { createHomeOpenedHandler, createHomeRefreshHandler } from '../home/slack/home-events.js';
import { DeskActionId } from '../kernel/blocks/ids.js';
import type { Surface } from '../kernel/slack/state.js';
import { createProgressRunHandler } from '../progress/slack/progress-run.js';
import { createReturnConfirmHandler, createReturnSeatHandler } from '../progress/slack/return-seat.js';

/** Registration only: App Home (event, Refresh and Return this seat, with the sections app.ts passes) and the alerts' "Let it end". */
export function registerEvents(app: App, s: Surface, home: { sections?: HomeSections } = {}): void {
  app.event('app_home_opened', createHomeOpenedHandler(s.deps, home.sections));
  app.action<BlockAction<ButtonAction>>(DeskActionId.homeRefresh, createHomeRefreshHandler(s.deps, home.sections));
  // "Return this seat" on a finished course: the revoke confirmation by DM, and Home told the outcome.
  app.action<BlockAction<ButtonAction>>(DeskActionId.returnSeat, createReturnSeatHandler(s, home.sections));
  app.action<BlockAction<ButtonAction>>(DeskActionId.returnSeatConfirm, createReturnConfirmHandler(s, home.sections));
  // "Run the progress pass now" (admins): the daily pass at once, at its share of the budget.
  app.action<BlockAction<ButtonAction>>(DeskActionId.progressRun, createProgressRunHandler(s, home.sections));
  app.action<BlockAction<ButtonAction>>(DeskActionId.alertLetEnd, createLetItEndHandler(s));
  app.action<BlockAction<ButtonAction>>(DeskActionId.digestShowHolders, createShowHoldersHandler(s));
}
