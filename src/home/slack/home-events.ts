/**
 * App Home's listeners: app_home_opened (Home tab) and Refresh publish the view (src/home/slack/home.ts).
 * Bolt acks events before the listener runs (platform.md section 1.6), so nothing here races Slack's 3 s.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
} from '@slack/bolt';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type HomeSections, showHome } from './home.js';

export function createHomeOpenedHandler(deps: AppDeps, sections?: HomeSections) {
  return async ({ event, client }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    // The Messages tab opens this event too; only the Home tab shows the dashboard.
    if (event.tab !== 'home') return;
    await showHome(deps, client, event.user, { sections });
  };
}

export function createHomeRefreshHandler(deps: AppDeps, sections?: HomeSections) {
  return async ({
    ack,
    body,
    client,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await showHome(deps, client, body.user.id, { force: true, sections });
  };
}
