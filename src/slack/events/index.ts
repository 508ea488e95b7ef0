import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createLetItEndHandler } from './alerts.js';
import { createHomeOpenedHandler, createHomeRefreshHandler } from './home.js';

/** Registration only: App Home (event and Refresh) and the alerts' "Let it end". */
export function registerEvents(app: App, deps: AppDeps): void {
  app.event('app_home_opened', createHomeOpenedHandler(deps));
  app.action<BlockAction<ButtonAction>>(DeskActionId.homeRefresh, createHomeRefreshHandler(deps));
  app.action<BlockAction<ButtonAction>>(DeskActionId.alertLetEnd, createLetItEndHandler(deps));
}
