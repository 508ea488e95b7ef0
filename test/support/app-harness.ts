/**
 * The real app in HTTP mode on 127.0.0.1, with the sandbox as the licensing API and the fake Slack
 * as Slack's Web API and response_urls. Requests are signed exactly as Slack signs them.
 *
 *   const t = await startTestApp();
 *   const r = await t.command('pools', { userId: TEST_USERS.viewer });
 *   const msg = await r.waitForResponse((p) => !String(p.body.text).includes('Working'));
 *   await t.close();
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App, CustomRoute } from '@slack/bolt';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox, SandboxOptions } from '../../local/sandbox/types.js';
import { composeApp } from '../../src/app/compose.js';
import type { ApproversFeature } from '../../src/approvers/index.js';
import type { DigestSchedule } from '../../src/digest/services/digest-schedule.js';
import type { DigestFeature } from '../../src/digest/slack/digest.js';
import type { ExtensionsFeature } from '../../src/extensions/index.js';
import type { RunningDesk } from '../../src/home/slack/desk.js';
import type { AlertsConfig } from '../../src/kernel/config/config.js';
import { openRecords, type Records } from '../../src/kernel/db/open.js';
import { createLicensingClient } from '../../src/kernel/licensing/index.js';
import type { LicensingClient, LicensingClientOptions } from '../../src/kernel/licensing/types.js';
import type { AuditLog } from '../../src/kernel/services/audit.js';
import type { AuditPostingOptions } from '../../src/kernel/services/audit-queue.js';
import type { OutboxSender } from '../../src/kernel/services/outbox.js';
import type { RedisConnections } from '../../src/kernel/services/redis.js';
import type { WorkTracker } from '../../src/kernel/services/work-tracker.js';
import type { Settler } from '../../src/kernel/services/writes/intents.js';
import type { AppDeps } from '../../src/kernel/slack/deps.js';
import { createLogger } from '../../src/kernel/slack/logger.js';
import { LEARNER_DEFAULTS, type LearnerSettings, type LearnersFeature } from '../../src/learners/index.js';
import { LEAVER_DEFAULTS, type LeaversFeature, type LeaversSetup } from '../../src/leavers/index.js';
import { AUTO_RETURN_DEFAULTS, type AutoReturnSettings } from '../../src/progress/domain/auto-return.js';
import type { ProgressPass } from '../../src/progress/services/progress-pass.js';
import type { AutoReturnFeature } from '../../src/progress/slack/auto-return.js';
import { type ReclaimSettings, reclaimSettings } from '../../src/reclaim/domain/reclaim.js';
import type { ReclaimFeature } from '../../src/reclaim/slack/start.js';
import { type RequestTimers, requestTimers } from '../../src/requests/domain/requests.js';
import type { RequestsFeature, WaitlistSetup } from '../../src/requests/slack/start.js';
import type { SlackbotSettings } from '../../src/slackbot/index.js';
import { type TwoPersonFeature, type TwoPersonSettings, twoPersonSettings } from '../../src/two-person/index.js';
import {
  type FakeSlack,
  type FakeSlackOptions,
  type ResponseUrlPost,
  startFakeSlack,
  TEST_USERS,
} from './fake-slack.js';
import { commandBody, FORM, interactionBody, slackHeaders } from './slack-signing.js';

export const TEST_SIGNING_SECRET = 'e2e0signing0secret0not0for0production';
export const TEST_BOT_TOKEN = 'xoxb-e2etest';
const TEAM = { id: 'T0ACME0001', domain: 'acme-learning' };
const APP_ID = 'A0LICBOT01';

export interface TestAppOptions {
  /** Passed to startSandbox; default: demo seed, 25 requests per 3 s (a minute scaled 20x). */
  sandbox?: SandboxOptions;
  /** deps.sandbox: the app shows its sandbox marker; default true (the harness runs on the sandbox). */
  sandboxMode?: boolean;
  slack?: FakeSlackOptions;
  /** LICENSE_ADMINS; default [TEST_USERS.admin]. [] with viewers [] means workspace admins only. */
  admins?: string[];
  /** LICENSE_VIEWERS; default [TEST_USERS.viewer, TEST_USERS.viewerGroup]. */
  viewers?: string[] | '*';
  /** Merged over the harness client options (admin token, 25 per 3 s, cache 30 s). */
  licensing?: Partial<LicensingClientOptions>;
  now?: () => Date;
  auditChannel?: string;
  /** The audit channel's post queue; default quick (10 ms pace, refusals folded over 10 ms quiet). */
  auditPosting?: AuditPostingOptions;
  /** With a DATA_DIR, the desk (App Home, alerts, bulk jobs) is built and started. */
  dataDir?: string;
  /**
   * REDIS_URL's connections for the replicas' shared state (the repeat guard, the App Home snapshot), as
   * main.ts hands them to the root; closed by close(). The licensing limiter's Redis is
   * `licensing.rateLimit.redis`.
   */
  redis?: RedisConnections;
  /** Alert settings (default: no channel, 09:00 UTC); the scheduler never ticks on its own in tests. */
  alerts?: Partial<AlertsConfig>;
  /** Default 0.2. */
  homeBudgetShare?: number;
  /** Course requests (cards channel, timers); without it the request surfaces say they are off. */
  requests?: { channel?: string; timers: RequestTimers; escalateTo?: string[] };
  /**
   * The waitlist of approved requests for full pools, connected to the requests (without `requests`,
   * with the default timers). Default budget: 25 requests per 3 s, share homeBudgetShare. Its
   * background check never ticks on its own: call `selfService.watch.tick()`.
   */
  waitlist?: Partial<WaitlistSetup>;
  /**
   * The records (an opened database, left open by close(); test/support/records.ts `testDatabases()`):
   * the audit table, the requests, the desk's bulk jobs and alert memory. Default: with `dataDir`, SQLite
   * there (as main.ts opens it without DATABASE_URL); else, with requests, SQLite in a temporary
   * directory removed by close(); else none (the audit trail kept in memory).
   */
  records?: Records;
  /**
   * Reclaim rounds (docs/reclaim.md) on the app's records (needs `requests`, `waitlist`, `dataDir` or
   * `records`), with these settings over the defaults. Its scheduler never ticks on its own: call
   * `reclaim.tick()`.
   */
  reclaim?: Partial<ReclaimSettings>;
  /**
   * The automatic return of finished seats (docs/progress.md) on the app's records (needs `requests`,
   * `waitlist`, `dataDir` or `records`), these settings over the defaults (`on` false); `channel` is the
   * alert channel of its post. Its read-back never ticks on its own: the test runs passes with
   * `autoReturn.afterPass` (or `autoReturn.service.resume()`).
   */
  autoReturn?: Partial<AutoReturnSettings> & { channel?: string };
  /** REQUESTERS; default '*' (every full member). */
  requesters?: string[] | '*';
  /**
   * Leavers (docs/leavers-and-offers.md#leavers) on the app's records, these settings over the defaults (7 days' grace);
   * `channel` is the alert channel. Its jobs never tick on their own: call `leavers.runReturns()` or
   * `leavers.runSweep()`.
   */
  leavers?: Partial<LeaversSetup['settings']> & Omit<LeaversSetup, 'settings'>;
  /** The weekly digest's schedule (with records); it never ticks on its own: call `digest.tick()` (or `digest.start()`, every `tickMs`). */
  digest?: DigestSchedule & { channel?: string; tickMs?: number };
  /** The learners' reminders (with records): LEARNER_REMIND_DAYS, default 7; the test ticks them. */
  learners?: Partial<LearnerSettings>;
  /**
   * The daily progress pass (with records) at this budget (default the harness's 25 per 3 s) and share,
   * as main.ts builds it: App Home's "Run the progress pass now" and the digest use it. It never runs on
   * its own: call `progressPass.start()` or `runNow()`.
   */
  progressPass?: { share: number; rateLimit?: { limit: number; windowMs: number }; startDelayMs?: number };
  /**
   * The two-person rule for mass changes (with records): TWO_PERSON_MIN_ROWS and TWO_PERSON_EXPIRY_HOURS
   * over the defaults; absent, the rule is off. Its expiry job never ticks on its own: call `twoPerson.tick()`.
   */
  twoPerson?: Partial<TwoPersonSettings>;
  /** Reuse a running sandbox / fake Slack (another app instance's), left open by close(). */
  useSandbox?: RunningSandbox;
  useSlack?: FakeSlack;
  /**
   * 'http' (default): the app listens on 127.0.0.1 and every request is signed and posted, as Slack
   * does. 'direct': no server; each payload is parsed as the receiver parses it and handed to Bolt's
   * `app.processEvent` with an `ack` of the harness's (test/support/listener-harness.ts): the
   * listeners, the gate and everything below them, without signing or HTTP.
   */
  transport?: 'http' | 'direct';
  /** The Slackbot tools at POST /mcp (docs/slackbot.md); default off. */
  slackbot?: SlackbotSettings;
  /** More HTTP routes on the app's port (the local console's, for its "Ask Slackbot" panel). */
  routes?: CustomRoute[];
}

export interface SentRequest {
  status: number;
  /** The ack body as text ('' for an empty ack). */
  body: string;
  /** Time from sending to the response headers: the ack latency Slack would see. */
  ackMs: number;
}

export interface RespondedRequest extends SentRequest {
  responseId: string;
  responseUrl: string;
  /** The first response_url post (already received or future) that matches. Default timeout 10 s. */
  waitForResponse(predicate?: (post: ResponseUrlPost) => boolean, timeoutMs?: number): Promise<ResponseUrlPost>;
  /** Every response_url post received so far for this request. */
  responses(): ResponseUrlPost[];
}

export interface RequestOptions {
  userId?: string;
  channelId?: string;
  /** Default: a fresh id per request. */
  responseId?: string;
}

export interface TestApp {
  url: string;
  eventsUrl: string;
  signingSecret: string;
  slack: FakeSlack;
  sandbox: RunningSandbox;
  licensing: LicensingClient;
  deps: AppDeps;
  app: App;
  /** The app's audit trail and work tracker, as createApp built them. */
  audit: AuditLog;
  work: WorkTracker;
  /** The started desk, when `dataDir` was given. */
  desk: RunningDesk | undefined;
  /** Course requests and the waitlist as built before createApp, when `requests` or `waitlist` was given. */
  selfService: RequestsFeature | undefined;
  /** A learner's ask for more time, composed with the course requests (its check ticks with `extensions.tick()`). */
  extensions: ExtensionsFeature | undefined;
  /** Who approves: delegations and the daily list (its job ticks with `approvers.tick()`). */
  approvers: ApproversFeature | undefined;
  /** Reclaim rounds, when `reclaim` was given. */
  reclaim: ReclaimFeature | undefined;
  /** The automatic return of finished seats, when `autoReturn` was given. */
  autoReturn: AutoReturnFeature | undefined;
  /** Their records, outbox sender (sends every 50 ms; `flush()` sends what is due now) and settler. */
  records: Records | undefined;
  outbox: OutboxSender | undefined;
  settler: Settler | undefined;
  /** The weekly digest, when `digest` was given. */
  digest: DigestFeature | undefined;
  /** The daily progress pass, when `progressPass` was given. */
  progressPass: ProgressPass | undefined;
  /** Leavers, when `leavers` was given. */
  leavers: LeaversFeature | undefined;
  /** The learners' reminders, when `learners` was given. */
  learners: LearnersFeature | undefined;
  /** The two-person rule for mass changes, when `twoPerson` was given. */
  twoPerson: TwoPersonFeature | undefined;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  command(text: string, options?: RequestOptions & { command?: string }): Promise<RespondedRequest>;
  /** A block_actions payload; user, team, container, channel and response_url are filled in unless given. */
  action(payload: Record<string, unknown>, options?: RequestOptions): Promise<RespondedRequest>;
  clickButton(
    actionId: string,
    value: string,
    options?: RequestOptions & { blockId?: string },
  ): Promise<RespondedRequest>;
  /** A view_submission payload; `view` is merged over a minimal modal. */
  viewSubmission(payload: Record<string, unknown>, options?: RequestOptions): Promise<SentRequest>;
  /** An Events API body, or just the inner event (wrapped in an event_callback envelope). */
  event(bodyOrEvent: Record<string, unknown>): Promise<SentRequest>;
  /** Raw access for signature tests. */
  send(
    rawBody: string,
    options?: { contentType?: string; timestamp?: number; signature?: string },
  ): Promise<SentRequest>;
  /**
   * Resolves once every Slack request the app took in has been handled to its end (listeners, their
   * reads and writes): the point after which "nothing more happened" can be asserted without a sleep.
   */
  settled(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A second replica beside `first`: the same fake Slack and licensing API (unless `options` names
 * others), and the same database under an instance name of its own.
 */
export function startReplica(first: TestApp, records: Records, options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({
    useSandbox: first.sandbox,
    useSlack: first.slack,
    ...options,
    records: { ...records, instance: `${records.instance}-b` },
  });
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const now = options.now ?? (() => new Date());
  const slack = options.useSlack ?? (await startFakeSlack(options.slack));
  const sandbox =
    options.useSandbox ??
    (await startSandbox({
      host: '127.0.0.1',
      port: 0,
      now,
      rateLimit: { limit: 25, windowMs: 3000 },
      ...options.sandbox,
    }));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'debug',
    secrets: [TEST_BOT_TOKEN, TEST_SIGNING_SECRET, sandbox.adminToken, sandbox.readOnlyToken],
    write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
  });
  const licensing = await createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: 25, windowMs: 3000, marginMs: 100 },
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 500 },
    logger: logger.child({ component: 'licensing' }),
    ...options.licensing,
  });
  const wl = options.waitlist;
  const requests = options.requests ?? (wl ? { timers: requestTimers(24, 7) } : undefined);
  // One database for everything this app records, as main.ts has: the caller's, or one of its own.
  const ownDir =
    requests && !options.records && !options.dataDir ? mkdtempSync(join(tmpdir(), 'license-desk-app-')) : undefined;
  const recordsDir = options.records ? undefined : (options.dataDir ?? ownDir);
  const records =
    options.records ?? (recordsDir ? await openRecords({ dataDir: recordsDir, heartbeatMs: 0, now }) : undefined);
  const share = options.homeBudgetShare ?? 0.2;
  const rateLimit = { limit: 25, windowMs: 3000 };
  const ar = options.autoReturn;
  const lv = options.leavers;
  // The app as main.ts builds it (src/app/compose.ts), with the fakes as its ports; no job ticks on its
  // own but the outbox (every 50 ms): a test ticks the others.
  const composed = await composeApp(
    {
      roles: {
        admins: options.admins ?? [TEST_USERS.admin],
        viewers: options.viewers ?? [TEST_USERS.viewer, TEST_USERS.viewerGroup],
        ...(options.requesters ? { requesters: options.requesters } : {}),
      },
      sandbox: options.sandboxMode ?? true,
      auditChannel: options.auditChannel,
      auditPosting: options.auditPosting ?? { paceMs: 10, foldQuietMs: 10, foldMaxMs: 1000 },
      rateLimit,
      homeBudgetShare: share,
      ...(options.dataDir
        ? {
            desk: {
              dataDir: options.dataDir,
              // As in config: ALERT_CHANNEL falls back to AUDIT_CHANNEL.
              alerts: {
                time: '09:00',
                timeZone: 'UTC',
                ...(options.auditChannel ? { channel: options.auditChannel } : {}),
                ...options.alerts,
              },
            },
          }
        : {}),
      ...(requests
        ? {
            requests: {
              ...requests,
              ...(wl ? { waitlist: { rateLimit, share, ...wl } } : {}),
            },
          }
        : {}),
      ...(options.reclaim ? { reclaim: reclaimSettings(options.reclaim) } : {}),
      ...(ar ? { autoReturn: { settings: { ...AUTO_RETURN_DEFAULTS, ...ar }, channel: ar.channel } } : {}),
      ...(options.digest ? { digest: options.digest } : {}),
      ...(options.learners ? { learners: { ...LEARNER_DEFAULTS, ...options.learners } } : {}),
      ...(options.progressPass ? { progressPass: options.progressPass } : {}),
      ...(options.twoPerson ? { twoPerson: twoPersonSettings(options.twoPerson) } : {}),
      ...(lv
        ? {
            leavers: {
              settings: { on: lv.on ?? LEAVER_DEFAULTS.on, graceDays: lv.graceDays ?? LEAVER_DEFAULTS.graceDays },
              channel: lv.channel,
              ...(lv.sweep ? { sweep: lv.sweep } : {}),
            },
          }
        : {}),
      ...(options.slackbot ? { slackbot: options.slackbot } : {}),
      jobs: 'on demand',
      outboxEveryMs: 50,
    },
    {
      // t.licensing stays bare: what a test changes through it is a change made elsewhere.
      licensing,
      ...(records ? { records } : {}),
      ...(options.redis ? { redis: options.redis } : {}),
      slack: { mode: 'http', botToken: TEST_BOT_TOKEN, signingSecret: TEST_SIGNING_SECRET, apiUrl: slack.apiUrl },
      ...(options.routes ? { routes: options.routes } : {}),
      logger,
      now,
      retryConfig: { retries: 0 },
    },
  );
  const { app, deps, audit, work, outbox, settler, stops } = composed;
  const desk = await composed.jobs.start();
  const direct = options.transport === 'direct';
  const server = direct ? undefined : ((await composed.listen({ port: 0, host: '127.0.0.1' })) as Server);
  const url = server ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : '';
  const eventsUrl = server ? `${url}/slack/events` : '';
  let seq = 0;

  async function send(
    rawBody: string,
    o: { contentType?: string; timestamp?: number; signature?: string } = {},
  ): Promise<SentRequest> {
    if (direct) return processDirectly(app as App, rawBody, o.contentType);
    const headers = slackHeaders(TEST_SIGNING_SECRET, rawBody, o);
    if (o.signature !== undefined) headers['X-Slack-Signature'] = o.signature;
    const started = performance.now();
    const res = await fetch(eventsUrl, { method: 'POST', headers, body: rawBody });
    const ackMs = performance.now() - started;
    return { status: res.status, body: await res.text(), ackMs };
  }

  function responded(sent: SentRequest, responseId: string): RespondedRequest {
    return {
      ...sent,
      responseId,
      responseUrl: slack.responseUrl(responseId),
      waitForResponse: (predicate, timeoutMs = 10_000) => slack.waitForResponse(responseId, predicate, timeoutMs),
      responses: () => slack.responses.filter((r) => r.id === responseId),
    };
  }

  const user = (id: string) => {
    const name = `user-${id.toLowerCase()}`;
    return { id, username: name, name, team_id: TEAM.id };
  };
  const ids = (o: RequestOptions, kind: string) => ({
    userId: o.userId ?? TEST_USERS.admin,
    channelId: o.channelId ?? 'C0LICOPS01',
    responseId: o.responseId ?? `${kind}-${++seq}`,
    triggerId: `${Date.now()}.${++seq}.e2etrigger`,
  });

  const harness: TestApp = {
    url,
    eventsUrl,
    signingSecret: TEST_SIGNING_SECRET,
    slack,
    sandbox,
    licensing,
    deps,
    app,
    audit,
    work,
    desk,
    selfService: composed.requests,
    extensions: composed.extensions,
    approvers: composed.approvers,
    reclaim: composed.reclaim,
    autoReturn: composed.autoReturn,
    records,
    outbox,
    settler,
    digest: composed.digest,
    progressPass: composed.progressPass,
    leavers: composed.leavers,
    learners: composed.learners,
    twoPerson: composed.twoPerson,
    logs,
    send,
    async settled(timeoutMs = 10_000) {
      // The response to a request can reach the test before its listener ends; one turn lets a
      // request that was just acknowledged register before the wait starts.
      await new Promise((resolve) => setImmediate(resolve));
      if (!(await work.idle(timeoutMs))) throw new Error(`the app still had work in flight after ${timeoutMs} ms`);
      // What the work queued for people (the outbox) is sent too, as it is right after a commit.
      await outbox?.flush().catch(() => 0);
    },
    async command(text, o = {}) {
      const i = ids(o, 'cmd');
      const body = commandBody({
        token: 'qWeRtY1234567890AsDfGhJk',
        team_id: TEAM.id,
        team_domain: TEAM.domain,
        channel_id: i.channelId,
        channel_name: 'license-ops',
        user_id: i.userId,
        user_name: user(i.userId).name,
        command: o.command ?? '/licenses',
        text,
        api_app_id: APP_ID,
        is_enterprise_install: 'false',
        response_url: slack.responseUrl(i.responseId),
        trigger_id: i.triggerId,
      });
      return responded(await send(body), i.responseId);
    },
    async action(payload, o = {}) {
      const i = ids(o, 'action');
      const full = {
        type: 'block_actions',
        user: user(i.userId),
        api_app_id: APP_ID,
        token: 'qWeRtY1234567890AsDfGhJk',
        container: { type: 'message', message_ts: '1767225600.000100', channel_id: i.channelId, is_ephemeral: true },
        trigger_id: i.triggerId,
        team: TEAM,
        enterprise: null,
        is_enterprise_install: false,
        channel: { id: i.channelId, name: 'license-ops' },
        state: { values: {} },
        response_url: slack.responseUrl(i.responseId),
        actions: [],
        ...payload,
      };
      return responded(await send(interactionBody(full)), i.responseId);
    },
    clickButton(actionId, value, o = {}) {
      const action = { action_id: actionId, block_id: o.blockId ?? 'actions', type: 'button', value };
      return harness.action({ actions: [{ ...action, action_ts: `${Date.now() / 1000}` }] }, o);
    },
    async viewSubmission(payload, o = {}) {
      const i = ids(o, 'view');
      const view = {
        id: 'V0E2EVIEW1',
        team_id: TEAM.id,
        type: 'modal',
        blocks: [],
        private_metadata: '',
        callback_id: '',
        state: { values: {} },
        hash: '1767225603.e2ehash0',
        title: { type: 'plain_text', text: 'License Desk' },
        app_id: APP_ID,
        ...(payload.view as Record<string, unknown> | undefined),
      };
      const full = {
        type: 'view_submission',
        team: TEAM,
        user: user(i.userId),
        api_app_id: APP_ID,
        token: 'qWeRtY1234567890AsDfGhJk',
        trigger_id: i.triggerId,
        response_urls: [],
        is_enterprise_install: false,
        enterprise: null,
        ...payload,
        view,
      };
      return send(interactionBody(full));
    },
    event(bodyOrEvent) {
      const wrapped =
        bodyOrEvent.type === 'event_callback' || bodyOrEvent.type === 'url_verification'
          ? bodyOrEvent
          : {
              token: 'qWeRtY1234567890AsDfGhJk',
              team_id: TEAM.id,
              api_app_id: APP_ID,
              event: { event_ts: `${Date.now() / 1000}`, ...bodyOrEvent },
              type: 'event_callback',
              event_id: `Ev0E2E${++seq}`,
              event_time: Math.floor(Date.now() / 1000),
              authorizations: [{ team_id: TEAM.id, user_id: 'U0LICBOT01', is_bot: true, is_enterprise_install: false }],
            };
      return send(JSON.stringify(wrapped), { contentType: 'application/json' });
    },
    async close() {
      // As a stop closes them (src/kernel/config/shutdown.ts STOP_ORDER), without the drain.
      await stops.desk(5000);
      await stops.app(0);
      await stops.outbox(0);
      await stops['audit channel'](0);
      await stops['shared state'](0);
      await options.redis?.close();
      if (!options.records) await records?.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true, maxRetries: 5 });
      await licensing.close();
      if (!options.useSandbox) await sandbox.close();
      if (!options.useSlack) await slack.close();
    },
  };
  return harness;
}

/**
 * What the HTTP receiver does after its checks, without HTTP: the body parsed as Bolt parses it (form
 * fields, or the JSON of an interaction's `payload` field, or a JSON event), handed to
 * `app.processEvent` with an ack that keeps what the listener acknowledged with.
 */
async function processDirectly(app: App, rawBody: string, contentType = FORM): Promise<SentRequest> {
  let body: Record<string, unknown>;
  if (contentType === FORM) {
    const fields = Object.fromEntries(new URLSearchParams(rawBody));
    body = typeof fields.payload === 'string' ? (JSON.parse(fields.payload) as Record<string, unknown>) : fields;
  } else {
    body = JSON.parse(rawBody) as Record<string, unknown>;
  }
  const started = performance.now();
  let ackMs: number | undefined;
  let acked = '';
  try {
    await app.processEvent({
      body,
      ack: async (response?: unknown) => {
        ackMs ??= performance.now() - started;
        acked = response === undefined ? '' : typeof response === 'string' ? response : JSON.stringify(response);
      },
    });
  } catch {
    return { status: 500, body: acked, ackMs: ackMs ?? performance.now() - started };
  }
  return { status: ackMs === undefined ? 404 : 200, body: acked, ackMs: ackMs ?? performance.now() - started };
}

export { FORM, TEST_USERS };
