/**
 * Leavers composed (docs/leavers-and-offers.md#leavers): the use cases on the records, the renderers of the alert
 * channel's posts, App Home's section for license admins, and two jobs of the one runner, each under
 * the one lease so one replica runs it: the returns after the grace (soon after start, then every few
 * minutes) and the weekly sweep (an hourly tick that claims the week).
 */
import type { webApi } from '@slack/bolt';
import type { HomeSections, HomeView } from '../../home/index.js';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import { createDbLease } from '../../kernel/services/jobs/lease.js';
import { type Job, type JobTimers, realTimers } from '../../kernel/services/jobs/runner.js';
import { createIntents } from '../../kernel/services/writes/intents.js';
import { createWriteLedger } from '../../kernel/services/writes/ledger.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type NoticeFeatureOptions, noticeOf } from '../../kernel/slack/notices.js';
import { jobChangeContext } from '../../kernel/slack/state.js';
import { createProgressStore } from '../../progress/index.js';
import {
  buildLeaverCancelledPost,
  buildLeaverHeldPost,
  buildLeaverReturnsPost,
  buildLeaversHomeSection,
} from '../blocks/leavers.js';
import { createLeaverHolds, type LeaverHolds } from '../db/holds.js';
import {
  type HoldOutcome,
  LEAVER_NOTICE_KINDS,
  type LeaverNotice,
  type LeaverSettings,
  SLACK_LOOKUP_PACE_MS,
  weekOf,
} from '../domain/leavers.js';
import type { LeaversContext } from '../services/context.js';
import { cancelHold, holdLeaver, type Leaver } from '../services/hold.js';
import { type ReturnRun, runReturns } from '../services/returns.js';
import { type SweepReport, sweep } from '../services/sweep.js';
import { lookUpByEmail } from './lookup.js';

/** The returns after the grace: how often the job looks for holds due. */
export const RETURNS_EVERY_MS = 5 * 60_000;
/** The sweep's tick: it runs once a week (the week claimed in the records), at the first tick of the week. */
export const SWEEP_TICK_MS = 60 * 60_000;
/** Untransferable seats stay listed on App Home this long after the grace. */
const LISTED_DAYS = 30;
/** Holds App Home lists at most. */
const HOME_MAX = 15;

export interface LeaversSetup {
  settings: LeaverSettings;
  /** The alert channel (ALERT_CHANNEL, else AUDIT_CHANNEL); unset: no channel post. */
  channel?: string | undefined;
  /**
   * The sweep's pace between two lookups (default Tier 3's: 1.2 s), how it waits (default the runner's
   * timers), and whether it runs weekly (default yes; the local demo's Slack double knows only a few
   * of the sandbox's holders, so it has none).
   */
  sweep?: { paceMs?: number; wait?: (ms: number) => Promise<void>; weekly?: boolean };
}

export interface LeaversFeature {
  settings: LeaverSettings;
  deactivated(leaver: Leaver): Promise<HoldOutcome>;
  reactivated(leaver: Leaver): Promise<number>;
  /** One run of the returns after the grace (the job's, or a test's); undefined when off. */
  runReturns(): Promise<ReturnRun | undefined>;
  /** The sweep now, whatever the week (the weekly job claims its week first); undefined when off. */
  runSweep(): Promise<SweepReport | undefined>;
  /** Which license holds of this member wait (a reactivation without an e-mail in its profile). */
  emailOfHeld(slackUser: string): Promise<string | undefined>;
  /** App Home's section for license admins. */
  homeSection: HomeSections;
  deliver(body: unknown): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

export const isLeaverNotice = noticeOf<LeaverNotice>(LEAVER_NOTICE_KINDS);

/** Waits on the runner's timers; `cut()` ends every wait at once (a stop does not sit out a Retry-After). */
function waits(timers: JobTimers) {
  const pending = new Set<() => void>();
  return {
    wait: (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          pending.delete(done);
          timers.clearTimeout(timer);
          resolve();
        };
        const timer = timers.setTimeout(done, ms);
        pending.add(done);
      }),
    cut: () => {
      for (const done of [...pending]) done();
    },
  };
}

/** The alert channel's post of one notice. */
async function postNotice(deps: AppDeps, client: webApi.WebClient, notice: LeaverNotice): Promise<void> {
  const message =
    notice.kind === 'leaver-held'
      ? buildLeaverHeldPost(notice)
      : notice.kind === 'leaver-cancelled'
        ? buildLeaverCancelledPost(notice)
        : buildLeaverReturnsPost(notice);
  const m = withSandboxMarker(message, deps.sandbox);
  await client.chat.postMessage({ channel: notice.channel, text: m.text, blocks: m.blocks });
}

/** App Home's "Leavers' seats" under the dashboard, for license admins. */
async function withLeaversSection(
  deps: AppDeps,
  store: LeaverHolds,
  settings: LeaverSettings,
  view: HomeView,
  canChange: boolean,
): Promise<HomeView> {
  if (!settings.on || !canChange) return view;
  try {
    const since = new Date(deps.now().getTime() - LISTED_DAYS * DAY_MS);
    const blocks = buildLeaversHomeSection(await store.listed(HOME_MAX, since));
    return blocks.length > 0 ? { ...view, blocks: [...view.blocks, ...blocks] } : view;
  } catch (error) {
    deps.logger.warn('could not read the leavers’ seats for the Home tab', { error: String(error) });
    return view;
  }
}

export function composeLeavers(
  deps: AppDeps,
  opts: Omit<NoticeFeatureOptions<LeaverSettings>, 'settings'> & LeaversSetup,
): LeaversFeature {
  const { records, settings } = opts;
  const logger = deps.logger;
  const store = createLeaverHolds(records);
  // A return is a licensing write: recorded as an intent before it is sent, like an admin's revoke.
  const writes = deps.writes ?? createWriteLedger(records, createIntents(records, deps.now));
  let returnsJob: Job | undefined;
  let sweepJob: Job | undefined;
  let stopping = false;
  let runs = 0;
  const ctx: LeaversContext = {
    records,
    licensing: deps.licensing,
    outbox: opts.outbox,
    change: () => jobChangeContext(deps, opts.audit, writes),
    now: deps.now,
    settings,
    channel: opts.channel,
    logger,
    settle: async () => deps.settler?.runOnce(),
    // A failed run now is logged; the job's own timer tries again.
    kick: () =>
      void returnsJob
        ?.run()
        .catch((error: unknown) => logger.warn('leavers: returns run on a due hold failed', { error: String(error) })),
    store,
  };
  const paced = waits(deps.jobs?.timers ?? realTimers);
  const runSweep = async () => {
    if (!settings.on) return undefined;
    return sweep(ctx, {
      emails: () => createProgressStore(records).activeHolderEmails(),
      lookup: (email) => lookUpByEmail(opts.client, email),
      wait: opts.sweep?.wait ?? paced.wait,
      paceMs: opts.sweep?.paceMs ?? SLACK_LOOKUP_PACE_MS,
      stopping: () => stopping,
    });
  };
  const lease = () => ({ lease: createDbLease(records, { now: deps.now }) });

  return {
    settings,
    deactivated: (leaver) => holdLeaver(ctx, leaver),
    reactivated: (leaver) => cancelHold(ctx, leaver),
    runReturns: async () => (settings.on ? runReturns(ctx, `${records.instance}:${++runs}`) : undefined),
    runSweep,
    async emailOfHeld(slackUser) {
      return (await store.heldBySlackUser(slackUser))?.student_email;
    },
    homeSection: (d, canChange, view) => withLeaversSection(d, store, settings, view, canChange),
    async deliver(body) {
      if (!isLeaverNotice(body)) return false;
      await postNotice(deps, opts.client, body);
      return true;
    },
    start() {
      if (!settings.on || !deps.jobs) return;
      stopping = false;
      returnsJob ??= deps.jobs.add({
        name: 'leavers: returns',
        everyMs: RETURNS_EVERY_MS,
        // After the settler's first round: a return a killed process left has its intent read back first.
        firstAfterMs: 20_000,
        oneReplica: lease(),
        run: () => runReturns(ctx, `${records.instance}:${++runs}`),
      });
      if (opts.sweep?.weekly === false) return;
      sweepJob ??= deps.jobs.add({
        name: 'leavers: weekly sweep',
        everyMs: SWEEP_TICK_MS,
        firstAfterMs: 10 * 60_000,
        // The sweep of 5,000 holders lasts about 100 minutes: the lease is renewed while it runs.
        oneReplica: lease(),
        run: async () => {
          const week = weekOf(deps.now());
          if (!(await store.claimWeek(week, deps.now()))) return undefined;
          const report = await runSweep();
          await store.finishWeek(week, deps.now(), { lookedUp: report?.slackRequests ?? 0, found: report?.found ?? 0 });
          return report;
        },
      });
    },
    async stop() {
      stopping = true;
      paced.cut();
      await Promise.all([returnsJob?.stop(), sweepJob?.stop()]);
      returnsJob = undefined;
      sweepJob = undefined;
    },
  };
}
