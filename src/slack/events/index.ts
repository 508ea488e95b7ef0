import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId } from '../../blocks/ids.js';
import type { HomeSections } from '../home.js';
import type { Surface } from '../state.js';
import { createLetItEndHandler } from './alerts.js';
import { createShowHoldersHandler } from './digest.js';
import { createHomeOpenedHandler, createHomeRefreshHandler } from './home.js';

/** Registration only: App Home (event and Refresh, with the sections app.ts passes) and the alerts' "Let it end". */
export function registerEvents(app: App, s: Surface, home: { sections?: HomeSections } = {}): void {
  app.event('app_home_opened', createHomeOpenedHandler(s.deps, home.sections));
  app.action<BlockAction<ButtonAction>>(DeskActionId.homeRefresh, createHomeRefreshHandler(s.deps, home.sections));
  app.action<BlockAction<ButtonAction>>(DeskActionId.alertLetEnd, createLetItEndHandler(s));
  app.action<BlockAction<ButtonAction>>(DeskActionId.digestShowHolders, createShowHoldersHandler(s));
}
