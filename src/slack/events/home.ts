/**
 * App Home: on app_home_opened (Home tab) and on Refresh, ask the gate (viewers and admins), publish the
 * dashboard from the last snapshot at once (or a loading view), then refresh at background priority
 * within the dashboard's budget share and publish again. Bolt acks events before the listener runs
 * (platform.md section 1.6), so nothing here races Slack's 3 s. views.publish needs no scope.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  webApi,
} from '@slack/bolt';
import { buildDashboardHomeView, buildNoticeHomeView, buildRefusalHomeView, type HomeView } from '../../blocks/home.js';
import type { RefreshResult } from '../../services/dashboard.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../gate.js';
import { presentErrorTo } from '../token-alarm.js';
import { withWaitlist } from '../waitlist/home.js';

const SKIPPED: Record<Exclude<RefreshResult, { refreshed: true }>['reason'], string | undefined> = {
  fresh: undefined,
  budget: 'Shown from the last reading: the dashboard has used its share of the licensing rate budget for now.',
  busy: 'Shown from the last reading: background work (a bulk job) is using the licensing budget; Refresh later.',
};

async function publish(client: webApi.WebClient, userId: string, view: HomeView, deps: AppDeps): Promise<void> {
  try {
    await client.views.publish({ user_id: userId, view });
  } catch (error) {
    deps.logger.warn('views.publish failed', { userId, error: String(error) });
  }
}

export async function showHome(deps: AppDeps, client: webApi.WebClient, userId: string, force = false): Promise<void> {
  const verdict = await authorize(deps, client, userId, 'viewer');
  // Slack rate-limited the role check: say so (and offer Refresh), never "you don't have access".
  if (!verdict.allowed && verdict.reason === 'slack-busy')
    return publish(client, userId, buildNoticeHomeView(verdict.text, deps.sandbox), deps);
  if (!verdict.allowed) return publish(client, userId, buildRefusalHomeView(deps.roles.whoToAsk(), deps.sandbox), deps);
  const { role, canChange } = verdict;
  const desk = deps.desk;
  const base = { canChange, now: deps.now(), sandbox: deps.sandbox };
  if (!desk) {
    return publish(
      client,
      userId,
      buildDashboardHomeView({ ...base, data: undefined, note: 'The dashboard is not set up in this process.' }),
      deps,
    );
  }
  const cached = desk.dashboard.current();
  await publish(client, userId, buildDashboardHomeView({ ...base, data: cached, refreshing: true }), deps);
  let view: HomeView;
  try {
    const result = await desk.dashboard.refresh({ force });
    const note = result.refreshed ? undefined : SKIPPED[result.reason];
    view = buildDashboardHomeView({ ...base, now: deps.now(), data: result.data, ...(note ? { note } : {}) });
  } catch (error) {
    deps.logger.warn('dashboard refresh failed', { error: String(error) });
    view = buildDashboardHomeView({ ...base, data: cached, note: await presentErrorTo(deps, client, role, error) });
  }
  await publish(client, userId, await withWaitlist(deps, canChange, view), deps);
}

export function createHomeOpenedHandler(deps: AppDeps) {
  return async ({ event, client }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs): Promise<void> => {
    // The Messages tab opens this event too; only the Home tab shows the dashboard.
    if (event.tab !== 'home') return;
    await showHome(deps, client, event.user);
  };
}

export function createHomeRefreshHandler(deps: AppDeps) {
  return async ({
    ack,
    body,
    client,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await showHome(deps, client, body.user.id, true);
  };
}
