/**
 * Publishing App Home for one person (the Home tab's event, its Refresh button, a waitlist click made
 * there): ask the gate (viewers and admins), publish the dashboard from the last snapshot at once (or
 * a loading view), then refresh at background priority within the dashboard's budget share and
 * publish again. views.publish needs no scope. A surface that adds a section under the dashboard
 * (the waitlist) passes it as `sections`; this module imports no surface.
 */
import type { webApi } from '@slack/bolt';
import { type DashboardData, dashboardWithin, type RefreshResult } from '../../digest/index.js';
import { type Block, divider } from '../../kernel/blocks/kit.js';
import { LIMITS } from '../../kernel/blocks/limits.js';
import { type Scope, withinScope } from '../../kernel/domain/scope.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import { givenUpSince } from '../../kernel/services/outbox.js';
import { withScope } from '../../kernel/services/request-scope.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type Allowed, authorize, mayAskForCourse } from '../../kernel/slack/gate.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { presentErrorTo } from '../../kernel/slack/token-alarm.js';
import { buildMyLicensesHomeSection, HOME_MAX_MY_LICENSES, recordedLicenses } from '../../learners/index.js';
import {
  createProgressStore,
  DEFAULT_PROGRESS_THRESHOLDS,
  type HomeProgress,
  homeProgress,
  homeProgressWithin,
} from '../../progress/index.js';
import { type ReclaimRoundSummary, recentRounds } from '../../reclaim/index.js';
import { buildMyRequestsHomeSection, HOME_MAX_MY_REQUESTS } from '../../requests/index.js';
import {
  buildDashboardHomeView,
  buildNoticeHomeView,
  buildRefusalHomeView,
  type HomeInput,
  type HomeView,
} from '../blocks/home.js';

/** More of the Home view for this person; `canChange` from the gate's verdict (the waitlist section shows to license admins). */
export type HomeSections = (deps: AppDeps, canChange: boolean, view: HomeView, userId?: string) => Promise<HomeView>;

export interface ShowHomeOptions {
  /** Refresh even when the snapshot is fresh (the Refresh button). */
  force?: boolean;
  sections?: HomeSections | undefined;
  /** What the person's last click here did (mrkdwn), shown on top of "Your requests" (e.g. a Cancel). */
  note?: string | undefined;
  /** A line on top about what this person just did on Home (e.g. "Return this seat"), shown this once. */
  result?: string | undefined;
}

/**
 * "Your requests" for someone who is not a license admin (admins have the waitlist section): their
 * open course requests and places in line, with Cancel, under the Home's quick actions; never past
 * Slack's 100 blocks of a view (fewer requests shown, the rest counted).
 */
async function withMyRequests(deps: AppDeps, userId: string, view: HomeView, note?: string): Promise<HomeView> {
  const service = deps.requests?.service;
  if (!service) return view;
  let section: Block[];
  try {
    const mine = await service.mine(userId);
    // Room for the divider, the header, the note and the "more" line besides the requests.
    const room = LIMITS.viewBlocks - view.blocks.length - 4;
    if (room < 1) return view;
    section = buildMyRequestsHomeSection({
      requests: mine,
      places: await service.placesOf(mine),
      ...(note ? { note } : {}),
      max: Math.min(HOME_MAX_MY_REQUESTS, room),
    });
  } catch (error) {
    deps.logger.warn('could not read the member’s course requests for the Home tab', { error: String(error) });
    return view;
  }
  if (section.length === 0) return view;
  const blocks = [...view.blocks];
  const at = blocks.findIndex((b) => (b as { block_id?: string }).block_id === 'home_actions');
  blocks.splice(at < 0 ? blocks.length : at + 1, 0, divider(), ...section);
  return { ...view, blocks };
}

/**
 * "Your licenses" for a full member (docs/learners.md): their own active licenses in the progress
 * records, found by the e-mail Slack shows for them (no licensing request: App Home keeps to its
 * budget), with Return my seat and Ask for more time; right under the quick actions, never past
 * Slack's 100 blocks of a view. Guests and bots get none.
 */
async function withMyLicenses(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  view: HomeView,
): Promise<HomeView> {
  let section: Block[];
  try {
    if (!(await deps.roles.isMember?.(client, userId))) return view;
    const room = Math.floor((LIMITS.viewBlocks - view.blocks.length - 3) / 2);
    if (room < 1) return view;
    const found = await resolveUserEmail(client, userId);
    if (!('email' in found)) return view;
    if (!deps.records) return view;
    const pools = deps.desk?.dashboard.current()?.pools ?? [];
    const titles = new Map(pools.map((p) => [p.id, p.course.title]));
    const outcome = await recordedLicenses(createProgressStore(deps.records), found.email, titles);
    section = buildMyLicensesHomeSection(outcome, deps.now(), Math.min(HOME_MAX_MY_LICENSES, room));
  } catch (error) {
    deps.logger.warn('could not read the member’s own licenses for the Home tab', { error: String(error) });
    return view;
  }
  const blocks = [...view.blocks];
  const at = blocks.findIndex((b) => (b as { block_id?: string }).block_id === 'home_actions');
  blocks.splice(at < 0 ? blocks.length : at + 1, 0, divider(), ...section);
  return { ...view, blocks };
}

/** How far back App Home looks for messages given up. */
const UNDELIVERED_DAYS = 7;

const SKIPPED: Record<Exclude<RefreshResult, { refreshed: true }>['reason'], string | undefined> = {
  fresh: undefined,
  budget: 'Shown from the last reading: the dashboard has used its share of the licensing rate budget for now.',
  busy: 'Shown from the last reading: background work (a bulk job) is using the licensing budget; Refresh later.',
};

/** A guest (single- or multi-channel) cannot be given a role or ask for a course; unknown: not a guest. */
async function isGuest(deps: AppDeps, client: webApi.WebClient, userId: string): Promise<boolean> {
  try {
    const { user } = await client.users.info({ user: userId });
    return user?.is_restricted === true || user?.is_ultra_restricted === true;
  } catch (error) {
    deps.logger.debug('users.info for the Home tab failed', { userId, error: String(error) });
    return false;
  }
}

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
  { force = false, sections, note, result }: ShowHomeOptions = {},
): Promise<void> {
  const verdict = await authorize(deps, client, userId, 'viewer');
  // Slack rate-limited the role check: say so (and offer Refresh), never "you don't have access".
  if (!verdict.allowed && verdict.reason === 'slack-busy')
    return publish(client, userId, buildNoticeHomeView(verdict.text, deps.sandbox), deps);
  // "Request a course" only for someone who may ask for one (never a guest's dead end).
  const canRequest = await mayAskForCourse(deps, client, userId);
  if (!verdict.allowed) {
    const guest = !canRequest && (await isGuest(deps, client, userId));
    const refusal = buildRefusalHomeView(deps.roles.whoToAsk(), deps.sandbox, canRequest, guest);
    const own = guest ? refusal : await withMyLicenses(deps, client, userId, refusal);
    return publish(client, userId, await withMyRequests(deps, userId, own, note), deps);
  }
  // Everything below is narrowed to the person's pools (the desk's reads through the gate's scope).
  return withScope(verdict.scope, () =>
    showDesk(deps, client, userId, verdict, canRequest, { force, sections, note, result }),
  );
}

/** The dashboard for someone the gate let in, within their scope. */
async function showDesk(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  verdict: Allowed,
  canRequest: boolean,
  { force = false, sections, note, result }: ShowHomeOptions,
): Promise<void> {
  const { canChange, scope } = verdict;
  // A member's own requests: everyone but license admins (their Home has the waitlist).
  const mine = (view: HomeView) => (canChange ? view : withMyRequests(deps, userId, view, note));
  const desk = deps.desk;
  const base: Pick<
    HomeInput,
    'canChange' | 'canRequest' | 'now' | 'sandbox' | 'progress' | 'undelivered' | 'result' | 'progressPass'
  > = {
    canChange,
    canRequest,
    now: deps.now(),
    sandbox: deps.sandbox,
    ...(result ? { result } : {}),
    ...(deps.progressPass ? { progressPass: true } : {}),
  };
  // Admins: the messages to people the outbox gave up lately (a read of the records; none when it fails).
  if (canChange && scope.all && deps.records) {
    const since = new Date(deps.now().getTime() - UNDELIVERED_DAYS * DAY_MS);
    const undelivered = await givenUpSince(deps.records, since).catch(() => undefined);
    if (undelivered) base.undelivered = undelivered;
  }
  if (!desk) {
    return publish(
      client,
      userId,
      await mine(
        await withMyLicenses(
          deps,
          client,
          userId,
          buildDashboardHomeView({ ...base, data: undefined, note: 'The dashboard is not set up in this process.' }),
        ),
      ),
      deps,
    );
  }
  const cached = within(scope, desk.dashboard.current());
  // What the daily progress pass recorded: counts per pool and, for admins, seats to give back.
  const progress = await readHomeProgress(deps);
  if (progress) Object.assign(base, { progress: homeProgressWithin(scope, progress) });
  const rounds = await readRecentRounds(deps);
  // A round over every pool is not one pool admin's.
  if (rounds) Object.assign(base, { rounds: withinScope(scope, rounds, (r) => r.poolId) });
  await publish(client, userId, await mine(buildDashboardHomeView({ ...base, data: cached, refreshing: true })), deps);
  let view: HomeView;
  try {
    const result = await desk.dashboard.refresh({ force });
    const note = result.refreshed ? undefined : SKIPPED[result.reason];
    view = buildDashboardHomeView({
      ...base,
      now: deps.now(),
      data: within(scope, result.data),
      ...(note ? { note } : {}),
    });
  } catch (error) {
    deps.logger.warn('dashboard refresh failed', { error: String(error) });
    view = buildDashboardHomeView({
      ...base,
      data: cached,
      note: await presentErrorTo(deps, client, canChange, error),
    });
  }
  const withSections = sections ? await sections(deps, canChange, view, userId) : view;
  await publish(client, userId, await mine(await withMyLicenses(deps, client, userId, withSections)), deps);
}

const within = (scope: Scope, data: DashboardData | undefined) => data && dashboardWithin(scope, data);

/** App Home's progress (counts per pool, seats to return); undefined without records or when they do not answer. */
export async function readHomeProgress(deps: AppDeps): Promise<HomeProgress | undefined> {
  if (!deps.records) return undefined;
  try {
    return await homeProgress(deps.records, deps.now(), deps.progress?.thresholds ?? DEFAULT_PROGRESS_THRESHOLDS);
  } catch (error) {
    deps.logger.warn('could not read the recorded progress for App Home', { error: String(error) });
    return undefined;
  }
}

/** The reclaim rounds open or closed lately, for admins; undefined without records or when they do not answer. */
async function readRecentRounds(deps: AppDeps): Promise<ReclaimRoundSummary[] | undefined> {
  if (!deps.records) return undefined;
  try {
    return await recentRounds(deps.records, deps.now());
  } catch (error) {
    deps.logger.warn('could not read the reclaim rounds for App Home', { error: String(error) });
    return undefined;
  }
}
