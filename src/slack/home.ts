/**
 * Publishing App Home for one person (the Home tab's event, its Refresh button, a waitlist click made
 * there): ask the gate (viewers and admins), publish the dashboard from the last snapshot at once (or
 * a loading view), then refresh at background priority within the dashboard's budget share and
 * publish again. views.publish needs no scope. A surface that adds a section under the dashboard
 * (the waitlist) passes it as `sections`; this module imports no surface.
 */
import type { webApi } from '@slack/bolt';
import {
  buildDashboardHomeView,
  buildNoticeHomeView,
  buildRefusalHomeView,
  type HomeInput,
  type HomeView,
} from '../blocks/home.js';
import type { RefreshResult } from '../services/dashboard.js';
import type { AppDeps } from './deps.js';
import { authorize, mayAskForCourse } from './gate.js';
import { readHomeProgress } from './progress.js';
import { presentErrorTo } from './token-alarm.js';

/** More of the Home view for this person; `canChange` from the gate's verdict (the waitlist section shows to license admins). */
export type HomeSections = (deps: AppDeps, canChange: boolean, view: HomeView) => Promise<HomeView>;

export interface ShowHomeOptions {
  /** Refresh even when the snapshot is fresh (the Refresh button). */
  force?: boolean;
  sections?: HomeSections | undefined;
  /** A line on top about what this person just did on Home (e.g. "Return this seat"), shown this once. */
  result?: string | undefined;
}

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

export async function showHome(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  { force = false, sections, result }: ShowHomeOptions = {},
): Promise<void> {
  const verdict = await authorize(deps, client, userId, 'viewer');
  // Slack rate-limited the role check: say so (and offer Refresh), never "you don't have access".
  if (!verdict.allowed && verdict.reason === 'slack-busy')
    return publish(client, userId, buildNoticeHomeView(verdict.text, deps.sandbox), deps);
  // "Request a course" only for someone who may ask for one (never a guest's dead end).
  const canRequest = await mayAskForCourse(deps, client, userId);
  if (!verdict.allowed) {
    return publish(client, userId, buildRefusalHomeView(deps.roles.whoToAsk(), deps.sandbox, canRequest), deps);
  }
  const { canChange } = verdict;
  const desk = deps.desk;
  const base: Pick<HomeInput, 'canChange' | 'canRequest' | 'now' | 'sandbox' | 'progress' | 'result' | 'progressPass'> =
    {
      canChange,
      canRequest,
      now: deps.now(),
      sandbox: deps.sandbox,
      ...(result ? { result } : {}),
      ...(deps.progressPass ? { progressPass: true } : {}),
    };
  if (!desk) {
    return publish(
      client,
      userId,
      buildDashboardHomeView({ ...base, data: undefined, note: 'The dashboard is not set up in this process.' }),
      deps,
    );
  }
  const cached = desk.dashboard.current();
  // What the daily progress pass recorded: counts per pool and, for admins, seats to give back.
  const progress = await readHomeProgress(deps);
  if (progress) Object.assign(base, { progress });
  await publish(client, userId, buildDashboardHomeView({ ...base, data: cached, refreshing: true }), deps);
  let view: HomeView;
  try {
    const result = await desk.dashboard.refresh({ force });
    const note = result.refreshed ? undefined : SKIPPED[result.reason];
    view = buildDashboardHomeView({ ...base, now: deps.now(), data: result.data, ...(note ? { note } : {}) });
  } catch (error) {
    deps.logger.warn('dashboard refresh failed', { error: String(error) });
    view = buildDashboardHomeView({
      ...base,
      data: cached,
      note: await presentErrorTo(deps, client, canChange, error),
    });
  }
  await publish(client, userId, sections ? await sections(deps, canChange, view) : view, deps);
}
