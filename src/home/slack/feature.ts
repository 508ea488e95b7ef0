/**
 * App Home as the composition root sees it (kernel/slack/feature.ts): the Home tab and its Refresh,
 * always; with the desk (records), the daily alert check and the bulk jobs a previous process left
 * unfinished, started once the app exists (its bot client posts without a request) and stopped before
 * the licensing client closes. `running()` is what main.ts and the tests drive them by.
 */
import type { App, BlockAction, ButtonAction, webApi } from '@slack/bolt';
import type { AlertsConfig } from '../../alerts/index.js';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { type RunningDesk, startDesk } from './desk.js';
import type { HomeSections } from './home.js';
import { createHomeOpenedHandler, createHomeRefreshHandler } from './home-events.js';

export interface HomeFeature extends Feature {
  /** The alert check and bulk jobs once started; undefined before, and without the desk. */
  running(): RunningDesk | undefined;
}

export function homeFeature(
  client: webApi.WebClient,
  deps: AppDeps,
  opts: { alerts?: AlertsConfig | undefined; sections?: HomeSections },
): HomeFeature {
  const { alerts, sections } = opts;
  let desk: RunningDesk | undefined;
  const register = (app: App) => {
    app.event('app_home_opened', createHomeOpenedHandler(deps, sections));
    app.action<BlockAction<ButtonAction>>(DeskActionId.homeRefresh, createHomeRefreshHandler(deps, sections));
  };
  if (!alerts) return { name: 'home', register, running: () => undefined };
  return {
    name: 'home',
    register,
    async start(mode) {
      desk = await startDesk(client, deps, { alerts, autoStart: mode === 'all' });
    },
    async stop(withinMs) {
      await desk?.stop(withinMs);
    },
    running: () => desk,
  };
}
