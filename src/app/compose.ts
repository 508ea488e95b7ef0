/**
 * The composition root: the whole app built from its settings and its ports, in dependency order, by
 * src/main.ts and by the tests' harness alike (test/support/app-harness.ts). Nothing is changed once
 * built: each part is made from parts made before it, and the listeners get the finished deps.
 *
 *   kernel (records' services, roles, work tracker) -> the Bolt App (its Slack client) -> audit trail
 *   -> desk -> course requests and waitlist -> reclaim, automatic return -> progress pass -> digest
 *   -> listeners -> auth.test
 *
 * Background work starts in one place (`jobs`); the caller starts it, then listens, and closes the
 * parts by their names (src/kernel/config/shutdown.ts STOP_ORDER) through `stops`.
 */
import type { App, Logger as BoltLogger, CustomRoute, webApi } from '@slack/bolt';
import { type AlertsConfig, alertsFeature } from '../alerts/index.js';
import { approvalsFeature } from '../approvals/index.js';
import {
  APPROVER_DEFAULTS,
  type ApproverSettings,
  type ApproversFeature,
  approversFeature,
  composeApprovers,
  withAwaySection,
} from '../approvers/index.js';
import { browseFeature } from '../browse/index.js';
import { bulkFeature, startHeldBulkJob } from '../bulk/index.js';
import { changesFeature } from '../changes/index.js';
import { createDigestFeature, type DigestFeature, type DigestSchedule, digestFeature } from '../digest/index.js';
import { exportFeature } from '../export/index.js';
import { composeExtensions, type ExtensionsFeature, extensionsFeature } from '../extensions/index.js';
import { createSlackAuditLog, historyFeature } from '../history/index.js';
import {
  createDesk,
  type Desk,
  type HomeFeature,
  type HomeSections,
  homeFeature,
  type RunningDesk,
  showHome,
} from '../home/index.js';
import type { Close, Part } from '../kernel/config/shutdown.js';
import type { Records } from '../kernel/db/open.js';
import { scopedLicensing } from '../kernel/licensing/scoped.js';
import type { LicensingClient } from '../kernel/licensing/types.js';
import type { AuditLog } from '../kernel/services/audit.js';
import type { AuditPostingOptions } from '../kernel/services/audit-queue.js';
import { createJobRunner, type Job, type JobRunner } from '../kernel/services/jobs/runner.js';
import { createSharedOnceGuard } from '../kernel/services/once.js';
import { createOutbox, type Outbox, type OutboxSender } from '../kernel/services/outbox.js';
import type { RedisConnections } from '../kernel/services/redis.js';
import { currentScope } from '../kernel/services/request-scope.js';
import { createWorkTracker, type WorkTracker } from '../kernel/services/work-tracker.js';
import { createIntents, createSettler, type Settler } from '../kernel/services/writes/intents.js';
import { createWriteLedger } from '../kernel/services/writes/ledger.js';
import type { AppDeps } from '../kernel/slack/deps.js';
import type { Feature } from '../kernel/slack/feature.js';
import type { LevelledLogger } from '../kernel/slack/logger.js';
import { createNotices, type Notices } from '../kernel/slack/notices.js';
import { createAppState } from '../kernel/slack/state.js';

import { composeLearners, type LearnerSettings, type LearnersFeature, learnersFeature } from '../learners/index.js';
import { composeLeavers, type LeaversFeature, type LeaversSetup, leaversFeature } from '../leavers/index.js';
import {
  type AutoReturnFeature,
  type AutoReturnSettings,
  composeAutoReturn,
  createProgressPass,
  createProgressStore,
  type ProgressPass,
  type ProgressThresholds,
  progressFeature,
  withProgressMarks,
} from '../progress/index.js';
import {
  composeReclaim,
  type ReclaimFeature,
  type ReclaimSettings,
  reclaimFeature,
  startHeldRound,
} from '../reclaim/index.js';
import {
  composeRequests,
  type RequestLimits,
  type RequestsFeature,
  type RequestTimers,
  requestsFeature,
  type WaitlistSetup,
  withWaitlist,
} from '../requests/index.js';
import { composeRoles, rolesFeature } from '../roles/index.js';
import {
  createSlackbot,
  SLACKBOT_OFF,
  type SlackbotPart,
  type SlackbotSettings,
  slackbotFeature,
} from '../slackbot/index.js';
import {
  composeTwoPerson,
  type TwoPersonFeature,
  type TwoPersonSettings,
  twoPersonFeature,
  withSoleDeciderLine,
} from '../two-person/index.js';
import { createBoltApp, initApp, registerListeners, type SlackTransport } from './app.js';

/** What the app talks to: each a real service in main.ts, a fake or a sandbox in the tests. */
export interface AppPorts {
  /** The licensing client; with records, License Desk's own changes reach its progress records at once. */
  licensing: LicensingClient;
  /** The records, opened (docs/records.md); without them, what lives in them is off and the audit trail is kept in memory. */
  records?: Records;
  /** REDIS_URL: the one Redis factory's connections (the replicas' shared state, /healthz's PING). */
  redis?: RedisConnections;
  /** Slack: how the app is reached (HTTP receiver or socket) and where its Web API is. */
  slack: SlackTransport;
  logger: LevelledLogger;
  /** The clock of every date rule. */
  now: () => Date;
  /** Bolt's own log lines; default the logger at info. */
  boltLogger?: BoltLogger;
  /** The Web API retry policy; default a few quick retries. */
  retryConfig?: webApi.RetryOptions;
  /** More HTTP routes on the app's port (the local console). */
  routes?: CustomRoute[];
  /** Local demo only: the Slack double's URL, shown on /healthz. */
  localSlackUrl?: string;
}

/** What the app is set to do (main.ts reads it from the configuration); a feature left out is off. */
export interface AppSettings {
  roles: { admins: string[]; viewers: string[] | '*'; requesters?: string[] | '*' };
  /** The sandbox marker on every reply: fixed, or read at each reply (a licensing service that says it is one). */
  sandbox: boolean | (() => boolean);
  auditChannel?: string | undefined;
  /** The audit channel's post queue; default Slack's pace. */
  auditPosting?: AuditPostingOptions;
  /** AUDIT_RETENTION_DAYS: older audit entries deleted at start and daily. */
  auditRetentionDays?: number | undefined;
  /** The licensing budget the background work takes its shares of. */
  rateLimit: { limit: number; windowMs: number };
  homeBudgetShare: number;
  progressThresholds?: ProgressThresholds;
  /** App Home, alerts and bulk jobs (needs records). */
  desk?: {
    dataDir: string;
    alerts: AlertsConfig;
    bulkTakeoverMs?: number | undefined;
    /** The in-process sandbox's data, seeded afresh at each start: its alert memory starts afresh too. */
    sandboxRun?: boolean;
  };
  /** Course requests, and the waitlist with `waitlist` (needs records). */
  requests?: {
    channel?: string | undefined;
    timers: RequestTimers;
    limits?: RequestLimits;
    waitlist?: WaitlistSetup;
    /** REQUEST_ESCALATE_TO (docs/roles-and-approvals.md); empty: the owners. */
    escalateTo?: readonly string[];
  };
  /** Who approves: the daily list's time and zone (docs/roles-and-approvals.md); default 09:00 UTC. */
  approvers?: ApproverSettings;
  /** Reclaim rounds (needs records). */
  reclaim?: ReclaimSettings;
  /** The automatic return of finished seats; `channel` is the alert channel of its post (needs records). */
  autoReturn?: { settings: AutoReturnSettings; channel?: string | undefined };
  /** The daily progress pass at this share of the budget (needs records). */
  progressPass?: { share: number; rateLimit?: { limit: number; windowMs: number }; startDelayMs?: number };
  /** The weekly digest (needs records). */
  digest?: DigestSchedule & { channel?: string | undefined; tickMs?: number };
  /** Leavers: a deactivated member's seats on hold, returned after the grace (needs records). */
  leavers?: LeaversSetup;
  /** The learners' reminders before a license ends (needs records; docs/learners.md). */
  learners?: LearnerSettings;
  /** The two-person rule for mass changes (needs records; docs/roles-and-approvals.md); absent: off. */
  twoPerson?: TwoPersonSettings;
  /** The Slackbot tools at POST /mcp (docs/slackbot.md); default off. */
  slackbot?: SlackbotSettings;
  /**
   * 'all': every job runs on its own timer (main.ts). 'on demand' (tests): only the outbox sends on its
   * own; the others run when a test ticks them.
   */
  jobs: 'all' | 'on demand';
  /** How often the outbox looks for messages due; default its own (5 s). */
  outboxEveryMs?: number;
}

/** The parts the root closes, by their names in STOP_ORDER. */
export type AppPart = Extract<Part, 'desk' | 'app' | 'outbox' | 'audit channel' | 'shared state'>;

export interface ComposedApp {
  app: App;
  /** What every listener received: never changed after the build. */
  deps: AppDeps;
  audit: AuditLog;
  work: WorkTracker;
  records: Records | undefined;
  outbox: (Outbox & OutboxSender) | undefined;
  settler: Settler | undefined;
  requests: RequestsFeature | undefined;
  /** A learner's ask for more time, composed with the course requests. */
  extensions: ExtensionsFeature | undefined;
  /** Who approves: delegations and the daily list (with the course requests). */
  approvers: ApproversFeature | undefined;
  reclaim: ReclaimFeature | undefined;
  /** The two-person rule for mass changes, when set (with records). */
  twoPerson: TwoPersonFeature | undefined;
  autoReturn: AutoReturnFeature | undefined;
  progressPass: ProgressPass | undefined;
  digest: DigestFeature | undefined;
  leavers: LeaversFeature | undefined;
  learners: LearnersFeature | undefined;
  /** The one place where background work starts and stops (the desk's alert check and bulk jobs included). */
  jobs: Jobs;
  /** Listens (HTTP) or connects (socket): what Bolt's start returns. */
  listen(at?: { port: number; host?: string }): Promise<unknown>;
  /** How to close each part, for the caller's stopper (main.ts) or close() (the harness). */
  stops: Record<AppPart, Close>;
}

export interface Jobs {
  /** Starts the background work; resolves with the desk's running jobs (alert check, resumed bulk jobs). */
  start(): Promise<RunningDesk | undefined>;
  /** Stops it; a running bulk job stops after its current line, waited for up to `bulkLineMs`. */
  stop(bulkLineMs?: number): Promise<void>;
}

/** A copy of `base` with `more` over it, its getters kept as getters (the sandbox marker is read live). */
function extend(base: AppDeps, more: Partial<AppDeps>): AppDeps {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(base), ...Object.getOwnPropertyDescriptors(more) },
  ) as AppDeps;
}

/** The kernel's part of deps: the records' services, roles, the clock, the work tracker. */
function kernelDeps(settings: AppSettings, ports: AppPorts, notices: Notices, runner: JobRunner) {
  const { records, logger, now } = ports;
  const marker = settings.sandbox;
  const intents = records ? createIntents(records, now) : undefined;
  const outbox = records
    ? createOutbox({
        records,
        logger: logger.child({ component: 'outbox' }),
        now,
        ...(settings.outboxEveryMs ? { everyMs: settings.outboxEveryMs } : {}),
        deliver: (body, steps) => notices.deliver(body, steps),
        jobs: runner,
      })
    : undefined;
  const settler = records
    ? createSettler({ records, logger: logger.child({ component: 'settle' }), now, jobs: runner })
    : undefined;
  // The roles from the environment, and the roles owners give in Slack over them (docs/roles-and-approvals.md).
  const roles = composeRoles({
    options: { ...settings.roles, logger },
    records,
    licensing: ports.licensing,
    logger,
    now,
  });
  const deps: AppDeps = {
    // License Desk's own changes (revoke, return, recycle, assign, end date) reach its progress records
    // at once, not at the next daily pass (docs/progress.md).
    // Narrowed to the scope of the person each request is for (kernel/services/request-scope.ts).
    licensing: scopedLicensing(
      records
        ? withProgressMarks(ports.licensing, createProgressStore(records), logger.child({ component: 'progress' }), now)
        : ports.licensing,
      currentScope,
    ),
    ...(records ? { records } : {}),
    jobs: runner,
    ...(ports.redis ? { redis: ports.redis } : {}),
    ...(intents ? { intents, writes: createWriteLedger(records as Records, intents) } : {}),
    ...(settler ? { settler } : {}),
    ...(outbox ? { outbox, notices } : {}),
    roles: roles.resolver,
    logger,
    now,
    get sandbox() {
      return typeof marker === 'function' ? marker() : marker;
    },
    work: createWorkTracker(),
    ...(settings.auditChannel ? { auditChannel: settings.auditChannel } : {}),
    ...(settings.progressThresholds ? { progress: { thresholds: settings.progressThresholds } } : {}),
  };
  return { deps, outbox, settler };
}

/** What the features are built on: the app's Slack client, its audit trail, the records and the outbox. */
interface BuiltParts {
  client: webApi.WebClient;
  audit: AuditLog;
  records: Records;
  outbox: Outbox & OutboxSender;
}

/** The features that live in the records, each built on those before it. */
async function composeFeatures(settings: AppSettings, ports: AppPorts, base: AppDeps, parts: BuiltParts) {
  const { client, audit, records, outbox } = parts;
  const { logger, now } = ports;
  const deskSettings = settings.desk;
  const desk: Desk | undefined = deskSettings
    ? await createDesk({
        licensing: base.licensing,
        records,
        logger: logger.child({ component: 'desk' }),
        now,
        dataDir: deskSettings.dataDir,
        rateLimit: settings.rateLimit,
        homeBudgetShare: settings.homeBudgetShare,
        audit: () => audit,
        ...(base.work ? { work: base.work } : {}),
        ...(base.jobs ? { jobs: base.jobs } : {}),
        ...(ports.redis ? { redis: ports.redis } : {}),
        ...(deskSettings.bulkTakeoverMs ? { bulkTakeoverMs: deskSettings.bulkTakeoverMs } : {}),
        ...(deskSettings.sandboxRun !== undefined ? { sandboxRun: deskSettings.sandboxRun } : {}),
      })
    : undefined;
  // With REDIS_URL the replicas share the repeat guard (docs/deployment.md).
  const withDesk = extend(base, { ...(desk ? { desk } : {}), ...(desk?.shared.shared ? { shared: desk.shared } : {}) });
  // Course requests and the waitlist of approved requests for full pools (docs/course-requests.md,
  // docs/waitlist.md): a freed seat goes to the first in line through the requests' assign.
  const r = settings.requests;
  // What course requests and a learner's ask for more time share: approvers, cards channel, timers.
  const shared =
    r && base.intents
      ? { client, audit, records, intents: base.intents, outbox, channel: r.channel, timers: r.timers }
      : undefined;
  const requests =
    r && shared
      ? composeRequests(withDesk, { ...shared, limits: r.limits, waitlist: r.waitlist, escalateTo: r.escalateTo })
      : undefined;
  const extensions =
    r && shared ? composeExtensions(withDesk, { ...shared, maxPerDay: r.limits?.maxPerDay }) : undefined;
  const withRequests = requests
    ? extend(withDesk, {
        requests: requests.requests,
        ...(requests.waitlist ? { waitlist: requests.waitlist } : {}),
        ...(extensions ? { extensions } : {}),
      })
    : withDesk;
  // Who approves: the daily "waiting for you" list reads the requests waiting, oldest first.
  const approvers = requests
    ? composeApprovers(withRequests, {
        client,
        audit,
        records,
        outbox,
        settings: settings.approvers ?? APPROVER_DEFAULTS,
        waiting: async () =>
          (await requests.store.byStatus('pending'))
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
            .map((x) => ({
              requestId: x.id,
              poolId: x.poolId,
              requester: x.requester,
              courseTitle: x.courseTitle,
              createdAt: x.createdAt,
            })),
      })
    : undefined;
  const later = composeSeatReturns(settings, ports, withRequests, parts);
  // A seat claimed from a waitlist offer and never started is asked about as a reclaim round of one.
  const reclaimService = later.reclaim?.service;
  if (reclaimService)
    requests?.offers?.askNotStartedWith((offer) =>
      reclaimService.askOne({
        licenseId: offer.licenseId,
        poolId: offer.poolId,
        courseTitle: offer.courseTitle,
        slackUser: offer.requester,
        admin: offer.approver,
      }),
    );
  return { desk, requests, extensions, approvers, ...later };
}

/**
 * What frees seats on its own, built on the waitlist: reclaim rounds, the automatic return after the
 * progress pass, the pass itself; then the digest, which waits for the pass.
 */
function composeSeatReturns(settings: AppSettings, ports: AppPorts, withRequests: AppDeps, parts: BuiltParts) {
  const { client, audit, records, outbox } = parts;
  const { logger, now } = ports;
  // Reclaim rounds and the automatic return: a seat they free goes to the waitlist above.
  const reclaim = settings.reclaim
    ? composeReclaim(withRequests, {
        client,
        audit,
        records,
        outbox,
        settings: settings.reclaim,
      })
    : undefined;
  const ar = settings.autoReturn;
  const autoReturn = ar
    ? composeAutoReturn(withRequests, {
        client,
        audit,
        records,
        outbox,
        settings: ar.settings,
        channel: ar.channel,
      })
    : undefined;
  // The daily progress pass (docs/progress.md): one replica a day, at background priority within its
  // share; App Home's "Run the progress pass now" runs this very pass.
  const p = settings.progressPass;
  const progressPass = p
    ? createProgressPass({
        licensing: withRequests.licensing,
        records,
        logger: logger.child({ component: 'progress' }),
        now,
        rateLimit: p.rateLimit ?? settings.rateLimit,
        share: p.share,
        ...(p.startDelayMs !== undefined ? { startDelayMs: p.startDelayMs } : {}),
        ...(autoReturn ? { afterPass: async (pass) => void (await autoReturn.afterPass(pass)) } : {}),
        ...(withRequests.jobs ? { jobs: withRequests.jobs } : {}),
      })
    : undefined;
  const deps = extend(withRequests, {
    ...(reclaim ? { reclaim } : {}),
    ...(progressPass ? { progressPass } : {}),
  });
  // The weekly digest: claimed per week in the records, posted through the outbox (docs/digest.md).
  const d = settings.digest;
  const digest = d
    ? createDigestFeature(deps, { schedule: d, outbox, ...(d.tickMs ? { tickMs: d.tickMs } : {}) })
    : undefined;
  // Leavers (docs/leavers-and-offers.md#leavers): a seat returned after the grace goes to the waitlist above.
  const leavers = settings.leavers
    ? composeLeavers(deps, { client, audit, records, outbox, ...settings.leavers })
    : undefined;
  // The learners' reminders before a license ends (docs/learners.md), from the progress records.
  const learners = settings.learners
    ? composeLearners(deps, { client, audit, records, outbox, settings: settings.learners })
    : undefined;
  const held = composeMassChanges(settings, deps, parts);
  return { deps: held.deps, reclaim, autoReturn, progressPass, digest, leavers, learners, twoPerson: held.twoPerson };
}

/**
 * The two-person rule (docs/roles-and-approvals.md): bulk jobs and reclaim rounds over
 * TWO_PERSON_MIN_ROWS wait for a second admin; once approved each starts through its own feature.
 */
function composeMassChanges(settings: AppSettings, base: AppDeps, parts: BuiltParts) {
  const { client, audit, records, outbox } = parts;
  if (!settings.twoPerson) return { deps: base, twoPerson: undefined };
  const twoPerson = composeTwoPerson(base, { client, audit, records, outbox, settings: settings.twoPerson });
  const deps = extend(base, { twoPerson: twoPerson.service });
  twoPerson.service.setStarter('bulk', (change) => startHeldBulkJob(client, deps, change.plan));
  twoPerson.service.setStarter('reclaim', (change) => startHeldRound(deps, change));
  return { deps, twoPerson };
}

type Features = Awaited<ReturnType<typeof composeFeatures>>;

/** Without records: App Home's desk, requests, reclaim, the progress pass and the digest are off. */
const NO_FEATURES: Omit<Features, 'deps'> = {
  desk: undefined,
  requests: undefined,
  extensions: undefined,
  approvers: undefined,
  reclaim: undefined,
  autoReturn: undefined,
  progressPass: undefined,
  digest: undefined,
  leavers: undefined,
  learners: undefined,
  twoPerson: undefined,
};

/**
 * Every feature in the order it was built, each the same shape (kernel/slack/feature.ts): what it
 * registers in Bolt, the notices it words, the writes it settles, the jobs it runs, how it stops.
 */
function featuresOf(
  settings: AppSettings,
  ports: AppPorts,
  parts: { client: webApi.WebClient; audit: AuditLog; runner: JobRunner; f: Features; slackbot: SlackbotPart },
): { all: Feature[]; home: HomeFeature } {
  const { client, audit, runner, f } = parts;
  // App Home's sections under the dashboard, for license admins: the waitlist, then the leavers' seats.
  const leavers = f.leavers;
  const listed: HomeSections = leavers
    ? async (deps, canChange, view) => leavers.homeSection(deps, canChange, await withWaitlist(deps, canChange, view))
    : withWaitlist;
  // Then, for admins, where the two-person rule cannot hold (one admin decides).
  const withSole: HomeSections = f.twoPerson ? withSoleDeciderLine(client, listed) : listed;
  // Then "Away and delegates" (docs/roles-and-approvals.md).
  const sections: HomeSections = async (deps, canChange, view, userId) =>
    withAwaySection(deps, canChange, await withSole(deps, canChange, view), userId);
  const home = homeFeature(client, f.deps, { alerts: settings.desk?.alerts, sections });
  const all: Feature[] = [
    historyFeature({
      records: ports.records,
      retentionDays: settings.auditRetentionDays,
      jobs: runner,
      logger: ports.logger.child({ component: 'audit' }),
    }),
    // After the app (its bot client posts alerts and bulk progress), stopped before the licensing client.
    home,
    alertsFeature(),
    browseFeature(),
    changesFeature(f.deps, audit),
    bulkFeature(),
    requestsFeature(f.requests),
    // Approving many at once: each decision through the course requests' own use case.
    approvalsFeature(),
    extensionsFeature(f.extensions),
    approversFeature(f.approvers, (deps, c, userId) => showHome(deps, c, userId, { sections })),
    reclaimFeature(f.reclaim),
    leaversFeature(f.leavers),
    learnersFeature(f.learners),
    progressFeature(f.progressPass, f.autoReturn, { sections }),
    digestFeature(f.digest),
    exportFeature(),
    rolesFeature(),
    twoPersonFeature(f.twoPerson),
    slackbotFeature(parts.slackbot),
  ];
  return { all, home };
}

/** Each feature's notices rendered by the outbox, and its writes in flight settled. */
function registerNotices(notices: Notices, settler: Settler | undefined, features: readonly Feature[]): void {
  for (const feature of features) {
    for (const [kind, render] of Object.entries(feature.notices ?? {})) notices.register(kind, render);
    for (const [kind, settle] of Object.entries(feature.writes ?? {})) settler?.register(kind, settle);
  }
}

/**
 * The one place where background work starts and stops: the records' heartbeat, the settling of
 * writes in flight and the outbox (the kernel's), then each feature's jobs in the order it was built.
 * With `jobs: 'on demand'` only the outbox runs on its own; the features' jobs wait for a test's tick.
 */
function createJobs(
  settings: AppSettings,
  ports: AppPorts,
  parts: {
    outbox: OutboxSender | undefined;
    settler: Settler | undefined;
    features: readonly Feature[];
    home: HomeFeature;
    runner: JobRunner;
  },
): Jobs {
  const { outbox, settler, features, home, runner } = parts;
  const mode = settings.jobs;
  let heartbeat: Job | undefined;
  return {
    async start() {
      // This process's heartbeat in the records (`instances.seen_at`): replicas know it is alive.
      const beat = ports.records?.heartbeat;
      if (mode === 'all' && beat && beat.everyMs > 0)
        heartbeat = runner.add({ name: 'records: heartbeat', everyMs: beat.everyMs, run: beat.beat });
      for (const feature of features) await feature.start?.(mode);
      // What a process killed mid-write left open is settled now, and every minute (docs/records.md).
      if (mode === 'all') settler?.start();
      outbox?.start();
      return home.running();
    },
    async stop(bulkLineMs) {
      await Promise.all([...features.map((feature) => feature.stop?.(bulkLineMs)), settler?.stop(), heartbeat?.stop()]);
    },
  };
}

export async function composeApp(settings: AppSettings, ports: AppPorts): Promise<ComposedApp> {
  const { records } = ports;
  // Messages to people and writes in flight (docs/records.md): each feature registers its kinds below.
  const notices = createNotices();
  // Everything periodic is a job of this one runner (src/kernel/services/jobs/runner.ts): each part
  // adds its jobs when it starts and stops them in the stop order.
  const runner = createJobRunner({ logger: ports.logger.child({ component: 'jobs' }) });
  const kernel = kernelDeps(settings, ports, notices, runner);
  const { outbox, settler } = kernel;
  // The Slackbot tools' POST /mcp goes on the app's port; it is bound to the finished app when the features register.
  const slackbot = createSlackbot(settings.slackbot ?? SLACKBOT_OFF, {
    signingSecret: ports.slack.signingSecret,
    logger: ports.logger.child({ component: 'slackbot' }),
  });
  const routes = [...(ports.routes ?? []), ...slackbot.routes];
  const app = createBoltApp(kernel.deps, {
    slack: ports.slack,
    ...(ports.boltLogger ? { boltLogger: ports.boltLogger } : {}),
    ...(ports.retryConfig ? { retryConfig: ports.retryConfig } : {}),
    ...(routes.length > 0 ? { routes } : {}),
    ...(ports.localSlackUrl ? { localSlackUrl: ports.localSlackUrl } : {}),
  });
  const client = app.client;
  notices.attach(client);
  // The audit trail posts through the app's own client; it is in the audit table with records.
  const audit = createSlackAuditLog(client, kernel.deps, settings.auditPosting);
  const features: Features =
    records && outbox
      ? await composeFeatures(settings, ports, kernel.deps, { client, audit, records, outbox })
      : { ...NO_FEATURES, deps: kernel.deps };
  const { deps } = features;
  const { all, home } = featuresOf(settings, ports, { client, audit, runner, f: features, slackbot });
  registerNotices(notices, settler, all);
  const work = deps.work ?? createWorkTracker();
  const state = createAppState({
    work,
    audit,
    ...(deps.shared?.shared ? { once: createSharedOnceGuard(deps.shared, deps.logger) } : {}),
  });
  registerListeners(app, { deps, state }, all);
  await initApp(app, ports.slack.apiUrl);
  const jobs = createJobs(settings, ports, { outbox, settler, features: all, home, runner });
  let listening = false;
  return {
    app,
    deps,
    audit,
    work,
    records,
    outbox,
    settler,
    requests: features.requests,
    extensions: features.extensions,
    approvers: features.approvers,
    reclaim: features.reclaim,
    twoPerson: features.twoPerson,
    autoReturn: features.autoReturn,
    progressPass: features.progressPass,
    digest: features.digest,
    leavers: features.leavers,
    learners: features.learners,
    jobs,
    async listen(at) {
      const started = ports.slack.mode === 'socket' || !at ? await app.start() : await app.start(at);
      listening = true;
      return started;
    },
    stops: {
      desk: (bulkLineMs) => jobs.stop(bulkLineMs),
      // An app that never started listening (the port was taken) has nothing to stop.
      app: async () => {
        if (listening) await app.stop();
      },
      // The messages the drained work queued go out before Slack's side closes (bounded by the stop);
      // the rest wait in the records for the next start.
      outbox: async () => {
        await outbox?.flush().catch(() => 0);
        await outbox?.stop();
        // Whatever job is still on the one runner (none, once every part has stopped its own).
        await runner.stop(1_000);
      },
      'audit channel': async () => void (await audit.close(3000)),
      'shared state': () => deps.desk?.close() ?? Promise.resolve(),
    },
  };
}
