/**
 * Composition root: read the configuration, start what stands in for missing services (sandbox,
 * local Slack double), build the licensing client and the app, start it, stop cleanly on SIGTERM.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { type CreatedApp, createApp, type SlackTransport } from './app/app.js';
import { usageHint } from './app/commands/index.js';
import { DIGEST_NOTICE_KIND } from './digest/services/digest-schedule.js';
import { createDigestFeature } from './digest/slack/digest.js';
import { importAuditFiles } from './history/services/audit-import.js';
import { startAuditRetention } from './history/services/audit-retention.js';
import { createDesk } from './home/services/desk.js';
import { startDesk } from './home/slack/desk.js';
import { COMMAND } from './kernel/blocks/ids.js';
import { type Config, formatProblems, readConfig, secretsOf } from './kernel/config/config.js';
import { DEMO_BOT_TOKEN, DEMO_SIGNING_SECRET } from './kernel/config/demo-credentials.js';
import { describeEnvFile, type EnvFileResult, loadEnvFile } from './kernel/config/env-file.js';
import { installProcessErrorPolicy } from './kernel/config/process-errors.js';
import { createStopper, type Stopper } from './kernel/config/shutdown.js';
import { openRecords } from './kernel/db/open.js';
import { createLicensingClient, DEFAULT_RATE_LIMIT } from './kernel/licensing/index.js';
import { probeSandbox, type SandboxProbe } from './kernel/licensing/sandbox-probe.js';
import { createIntents, createSettler } from './kernel/services/intents.js';
import { createJobRunner } from './kernel/services/jobs/runner.js';
import { createOutbox } from './kernel/services/outbox.js';
import { createWorkTracker } from './kernel/services/work-tracker.js';
import { createWriteLedger } from './kernel/services/writes/ledger.js';
import type { AppDeps } from './kernel/slack/deps.js';
import { createLogger, createRedactor, type LevelledLogger, toBoltLogger } from './kernel/slack/logger.js';
import { createNotices } from './kernel/slack/notices.js';
import { createRoleResolver } from './kernel/slack/roles.js';
import { registerWriteSettling } from './kernel/slack/writes/settling.js';
import { AUTO_RETURN_NOTICE_KINDS } from './progress/domain/auto-return.js';
import { withProgressMarks } from './progress/services/progress-marks.js';
import { createProgressPass } from './progress/services/progress-pass.js';
import { createProgressStore } from './progress/services/progress-store.js';
import { composeAutoReturn } from './progress/slack/auto-return.js';
import { RECLAIM_NOTICE_KINDS } from './reclaim/domain/reclaim.js';
import { composeReclaim } from './reclaim/slack/start.js';
import { REQUEST_NOTICE_KINDS, requestTimers } from './requests/domain/requests.js';
import { unreadableRequests } from './requests/services/db-store.js';
import { importRequestFiles } from './requests/services/import.js';
import { composeRequests } from './requests/slack/start.js';

/** A port someone else holds: the one setting that fixes it, named (Node says only EADDRINUSE). */
export function listenProblem(error: unknown, port: number): string | undefined {
  const e = error as NodeJS.ErrnoException & { port?: number };
  if (e?.code === 'EADDRINUSE') {
    return `Port ${e.port ?? port} is already in use: stop the other process (another License Desk?) or set PORT to a free port`;
  }
  if (e?.code === 'EACCES') return `Port ${e.port ?? port} needs privileges here: set PORT to a port above 1023`;
  return undefined;
}

/*
 * What only one mode uses is imported where that mode starts (the Redis stores; and local/: the sandbox,
 * the local console, the local Slack double and the demo's users): a production start in HTTP mode
 * loads none of their modules. These dynamic imports are the only way from src/ into local/
 * (docs/architecture.md, "The product and its local tools").
 */

/**
 * The local console (local/console/), in front of the local Slack double: the local demo only. Its page's
 * libraries are development dependencies: without them the demo runs on without the console and the
 * returned `off` says why and what to do.
 */
async function openLocalConsole(config: Config, logger: LevelledLogger) {
  const [{ consoleOptions }, { createConsole, missingConsoleLibraries }] = await Promise.all([
    import('../local/console/demo.js'),
    import('../local/console/server.js'),
  ]);
  const off = missingConsoleLibraries();
  if (off) {
    logger.warn(`local console not served: ${off}`);
    return { off };
  }
  return createConsole({
    ...consoleOptions(config, logger.child({ component: 'console' }), DEMO_SIGNING_SECRET),
    usageHint: `${COMMAND} ${usageHint()}`,
  });
}

/** Why the local demo will not run on the licensing service at LICENSING_API_URL (config.ts's rule). */
function demoLicensingProblem(probe: Exclude<SandboxProbe, 'sandbox'>): string {
  const seen =
    probe === 'unreachable'
      ? 'LICENSING_API_URL could not be reached to check that it is a licensing sandbox'
      : 'LICENSING_API_URL did not answer as a licensing sandbox (no x-licensing-sandbox: 1 header)';
  return `${seen}, and the local demo accepts requests signed with a secret published in its source, so it runs on sandbox data only: start npm run sandbox at that URL, unset LICENSING_API_URL and LICENSING_API_TOKEN for the built-in sandbox, or set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app`;
}

/** Where the local demo on the in-process sandbox keeps its state, inside DATA_DIR. */
export const DEMO_DATA_DIR = 'local-demo';
/** The file that says a directory is the demo's own, so that a start may empty it. */
const DEMO_MARK = '.license-desk-local-demo';

/**
 * The state of the local demo on the in-process sandbox: a directory of its own in DATA_DIR, emptied
 * at each start, since the sandbox is seeded afresh at each start too. Its records (history, waitlist,
 * messages, progress) then never speak of licenses the sandbox no longer has, and a deployment's own
 * records and files in DATA_DIR are never read or changed by the demo (docs/console.md).
 */
function freshDemoDir(dataDir: string): string {
  const dir = join(dataDir, DEMO_DATA_DIR);
  if (existsSync(dir) && !existsSync(join(dir, DEMO_MARK))) {
    throw new Error(
      `${resolve(dir)} is not the local demo's directory (it has no ${DEMO_MARK} file), and the demo empties its directory at each start: move it away, or set DATA_DIR to another directory`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, DEMO_MARK),
    'The local demo on the in-process sandbox keeps its records here; they are emptied at each of its starts.\n',
  );
  return dir;
}

async function start(config: Config, logger: LevelledLogger, stopper: Stopper): Promise<void> {
  const lic = config.licensing;
  // The local demo on the in-process sandbox starts afresh, records and sandbox alike; everything else
  // (a deployment, or the demo on a sandbox of npm run sandbox, which keeps its data) keeps DATA_DIR's.
  const dataDir =
    config.slack.mode === 'demo' && lic.mode === 'sandbox' ? freshDemoDir(config.dataDir) : config.dataDir;
  // The local demo's signing secret is public: a licensing service given by URL (on loopback, config.ts
  // made sure) must prove to be a sandbox before anything is built or served.
  let provenSandbox = false;
  if (config.slack.mode === 'demo' && lic.mode === 'api') {
    const probe = await probeSandbox(lic.url, Math.min(5000, lic.timeoutMs));
    if (probe !== 'sandbox') throw new Error(demoLicensingProblem(probe));
    provenSandbox = true;
  }
  let licensingApi = lic.mode === 'api' ? { url: lic.url, token: lic.token } : undefined;
  if (!licensingApi) {
    const { startSandbox } = await import('../local/sandbox/index.js');
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: { limit: lic.rateLimitPerMinute } });
    stopper.add('sandbox', () => sandbox.close());
    licensingApi = { url: sandbox.url, token: sandbox.adminToken };
    logger.warn(
      'SANDBOX MODE: LICENSING_API_URL and LICENSING_API_TOKEN are unset, so an in-process licensing sandbox with demo data stands in for the licensing API; nothing is real',
      { sandboxUrl: sandbox.url },
    );
  }
  // With REDIS_URL: the one Redis factory (services/redis.ts), keys prefixed per licensing account;
  // closed after what uses it (src/kernel/config/shutdown.ts STOP_ORDER).
  const redisModule = config.redisUrl ? await import('./kernel/services/redis.js') : undefined;
  const redis =
    config.redisUrl && redisModule
      ? redisModule.createRedisConnections(
          config.redisUrl,
          redisModule.redisPrefix(licensingApi.url, licensingApi.token),
        )
      : undefined;
  if (redis) stopper.add('redis', () => redis.close());
  const licensingClient = createLicensingClient({
    baseUrl: licensingApi.url,
    token: licensingApi.token,
    timeouts: { connectMs: Math.min(5000, lic.timeoutMs), headersMs: lic.timeoutMs, bodyMs: lic.timeoutMs },
    rateLimit: { limit: lic.rateLimitPerMinute, ...(redis ? { redis } : {}) },
    cacheTtlMs: lic.cacheTtlMs,
    dataDir,
    logger: logger.child({ component: 'licensing' }),
  });
  // By the time a stop closes it, the drain is over: what is still in flight is ended at once.
  stopper.add('licensing client', () => licensingClient.close({ abort: true }));
  const { slack } = config;
  let transport: SlackTransport;
  // The local console (a browser page that plays Slack) sits in front of the local Slack double.
  let localConsole: Exclude<Awaited<ReturnType<typeof openLocalConsole>>, { off: string }> | undefined;
  let consoleOff: string | undefined;
  if (config.console) {
    const opened = await openLocalConsole(config, logger);
    if ('off' in opened) consoleOff = opened.off;
    else localConsole = opened;
  }
  let localSlackUrl: string | undefined;
  let demoBanner: ((appUrl: string, source: 'in-process sandbox' | 'sandbox by URL') => string) | undefined;
  if (slack.mode === 'demo') {
    const [{ startLocalSlack }, demo] = await Promise.all([
      import('../local/slack/local-slack.js'),
      import('../local/slack/demo.js'),
    ]);
    demoBanner = demo.demoBanner;
    const local = await startLocalSlack({
      users: demo.DEMO_SLACK_USERS,
      botToken: DEMO_BOT_TOKEN,
      ...(localConsole ? { intercept: localConsole.intercept, onResponse: localConsole.onResponse } : {}),
    });
    localConsole?.attach(local);
    stopper.add('local Slack', () => local.close());
    localSlackUrl = local.url;
    transport = { mode: 'http', botToken: DEMO_BOT_TOKEN, signingSecret: DEMO_SIGNING_SECRET, apiUrl: local.apiUrl };
  } else {
    transport = slack;
  }

  // The records (docs/records.md): a damaged or unreachable database stops the start here, before any
  // listener could answer over lost records.
  const records = await openRecords({
    dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  });
  // Everything periodic runs as a job of this one runner (src/kernel/services/jobs/runner.ts); each part
  // stops its own jobs in the stop order, and the records stop what is left before they close.
  const jobs = createJobRunner({ logger: logger.child({ component: 'jobs' }) });
  const { heartbeat } = records;
  if (heartbeat.everyMs > 0) jobs.add({ name: 'records: heartbeat', everyMs: heartbeat.everyMs, run: heartbeat.beat });
  stopper.add('records', async () => {
    await jobs.stop(1_000);
    return records.close();
  });
  logger.info('records opened', { database: records.dialect, where: records.where });
  // What License Desk itself changes (revoke, return, recycle, assign, end date) reaches its progress
  // records at once, not at the next daily pass (docs/progress.md).
  const licensing = withProgressMarks(
    licensingClient,
    createProgressStore(records),
    logger.child({ component: 'progress' }),
    () => new Date(),
  );
  // The audit file of an older version goes into the audit table once (a bad line stops the start here).
  await importAuditFiles({ records, dataDir, logger: logger.child({ component: 'audit' }) });
  if (config.auditRetentionDays !== undefined) {
    const retention = startAuditRetention({
      jobs,
      records,
      days: config.auditRetentionDays,
      logger: logger.child({ component: 'audit' }),
    });
    await retention.run();
  }
  const now = () => new Date();
  // Writes in flight and messages to people (docs/records.md): features register their kinds below;
  // both start once the app is built, and stop with the desk.
  const notices = createNotices();
  const outbox = createOutbox({
    records,
    logger: logger.child({ component: 'outbox' }),
    now,
    deliver: (body, steps) => notices.deliver(body, steps),
    jobs,
  });
  const settler = createSettler({ records, logger: logger.child({ component: 'settle' }), now, jobs });
  const intents = createIntents(records, now);

  // Which work is in flight (requests, changes, bulk jobs): a stop waits for it (src/kernel/config/shutdown.ts).
  const work = createWorkTracker();
  stopper.watch(work);
  // The course requests and waitlist of an earlier version (DATA_DIR/requests.json, waitlist.json)
  // come into the database once; a file that cannot be read stops the start here, with its sentence.
  await importRequestFiles({ records, intents, dataDir, logger, now });
  // A course request whose row cannot be read (its JSON cut short, `null`) is reported here, not
  // refused: every view leaves it out and an action on it says it cannot be read (docs/records.md).
  const unreadable = await unreadableRequests(records.db);
  if (unreadable.length > 0) {
    logger.warn('records check: course requests that cannot be read; License Desk starts and leaves them out', {
      count: unreadable.length,
      requestIds: unreadable.slice(0, 20),
      next: 'restore them from a backup (npm run backup makes one), or delete their rows from the requests table',
    });
  }
  const deps: AppDeps = {
    licensing,
    records,
    jobs,
    ...(redis ? { redis } : {}),
    intents,
    // The admin's writes are recorded before they are sent (docs/records.md, "Writes in flight").
    writes: createWriteLedger(records, intents),
    settler,
    outbox,
    notices,
    roles: createRoleResolver({
      admins: config.admins,
      viewers: config.viewers,
      requesters: config.requests.requesters,
      logger,
    }),
    logger,
    now,
    // The in-process sandbox, or a licensing service that says it is one: read on every reply.
    get sandbox() {
      return lic.mode === 'sandbox' || provenSandbox || licensing.isSandbox?.() === true;
    },
    work,
    ...(config.auditChannel ? { auditChannel: config.auditChannel } : {}),
    progress: {
      thresholds: { notStartedDays: config.progress.notStartedDays, stalledDays: config.progress.stalledDays },
    },
  };
  // Built by createApp below; the desk asks for its audit trail only once the app runs.
  let created: CreatedApp | undefined;
  deps.desk = await createDesk({
    licensing,
    records,
    logger: logger.child({ component: 'desk' }),
    now: deps.now,
    dataDir,
    rateLimit: { limit: lic.rateLimitPerMinute, windowMs: DEFAULT_RATE_LIMIT.windowMs },
    homeBudgetShare: config.homeBudgetShare,
    audit: () => created?.audit,
    work,
    jobs,
    ...(redis ? { redis } : {}),
    ...(config.bulkTakeoverMs ? { bulkTakeoverMs: config.bulkTakeoverMs } : {}),
    // The in-process sandbox seeds its data afresh at each start: its alert memory starts afresh too.
    sandboxRun: lic.mode !== 'api',
  });
  // With REDIS_URL the replicas share the repeat guard (docs/deployment.md).
  if (deps.desk.shared.shared) deps.shared = deps.desk.shared;
  created = await createApp(deps, {
    slack: transport,
    boltLogger: toBoltLogger(logger.child({ component: 'bolt' }), config.logLevel),
    ...(localConsole ? { routes: localConsole.routes } : {}),
    ...(localSlackUrl ? { localSlackUrl } : {}),
  });
  const { app, audit } = created;
  notices.attach(app.client);
  // Course requests and the waitlist of approved requests for full pools, one feature, in the
  // records (docs/course-requests.md, docs/waitlist.md), composed once the app exists (its bot client
  // and audit trail) and before it listens. A freed seat goes to the first in line through the
  // requests' assign; the background check for seats freed elsewhere keeps to HOME_BUDGET_SHARE. Its
  // messages go through the outbox, its writes in flight are settled.
  const selfService = composeRequests(deps, {
    client: app.client,
    audit,
    records,
    intents,
    outbox,
    channel: config.requests.channel,
    timers: requestTimers(config.requests.remindHours, config.requests.expiryDays),
    limits: { maxOpen: config.requests.maxOpen, maxPerDay: config.requests.maxPerDay },
    waitlist: {
      rateLimit: { limit: lic.rateLimitPerMinute, windowMs: DEFAULT_RATE_LIMIT.windowMs },
      share: config.homeBudgetShare,
    },
  });
  for (const kind of REQUEST_NOTICE_KINDS)
    notices.register(kind, (_client, notice, steps) => selfService.deliver(notice, steps).then(() => undefined));
  settler.register(selfService.intentKind, (intent) => selfService.settle(intent));
  deps.requests = selfService.requests;
  if (selfService.waitlist) deps.waitlist = selfService.waitlist;
  // Reclaim rounds ("still learning?", docs/reclaim.md): a released seat goes to the waitlist above.
  const reclaim = composeReclaim(deps, {
    client: app.client,
    audit,
    records,
    outbox,
    settings: config.reclaim,
  });
  for (const kind of RECLAIM_NOTICE_KINDS)
    notices.register(kind, (_client, notice) => reclaim.deliver(notice).then(() => undefined));
  deps.reclaim = reclaim;
  // The automatic return of finished seats after each complete progress pass (PROGRESS_RETURN_COMPLETED,
  // off by default; docs/progress.md): a returned seat goes to the waitlist above.
  const autoReturn = composeAutoReturn(deps, {
    client: app.client,
    audit,
    records,
    outbox,
    settings: config.progress.autoReturn,
    channel: config.alerts.channel,
  });
  for (const kind of AUTO_RETURN_NOTICE_KINDS)
    notices.register(kind, (_client, notice) => autoReturn.deliver(notice).then(() => undefined));
  let listening = false;
  stopper.add('app', async () => {
    // The console's event streams end first: an open stream would keep the app's HTTP server from closing.
    localConsole?.close();
    // An app that never started listening (the port was taken) has nothing to stop.
    if (listening) await app.stop();
  });
  // After the app (its bot client posts alerts and bulk progress), stopped before the licensing client.
  const desk = await startDesk(app.client, deps, { alerts: config.alerts });
  // The weekly digest: claimed per week in the records, posted through the outbox (docs/digest.md).
  const digest = createDigestFeature(deps, { schedule: config.digest, outbox });
  notices.register(DIGEST_NOTICE_KIND, (client, notice) => digest.deliver(client, notice).then(() => undefined));
  // The console's demo: progress records for the digest, before any daily pass ran (sandbox data only).
  // In the background: demo data must not delay the start.
  if (localConsole) {
    const consoleLog = logger.child({ component: 'console' });
    void import('../local/console/progress-demo.js')
      .then(({ seedDemoProgress }) => seedDemoProgress(records, licensing, now(), consoleLog))
      .catch((error: unknown) => consoleLog.warn('console: demo progress not seeded', { error: String(error) }));
  }
  if (desk.scheduler) localConsole?.setAlertCheck((userId) => desk.checkNow(userId));
  localConsole?.setDigestPost(() => digest.postNow());
  // The requests' reminder and expiry check and the waitlist's background check: stopped with the
  // desk, before the licensing client.
  selfService.start();
  reclaim.start();
  // The admin's writes a killed process left in flight: read back, audited, told by DM.
  registerWriteSettling(deps, audit);
  // What a process killed mid-write left open is settled now, and every minute (docs/records.md).
  settler.start();
  outbox.start();
  // The daily progress pass (docs/progress.md): one replica a day, at background priority within
  // PROGRESS_BUDGET_SHARE; a stop ends it after its current page and the next start goes on from there.
  const progressPass = config.progress.pass
    ? createProgressPass({
        licensing,
        records,
        logger: logger.child({ component: 'progress' }),
        now,
        rateLimit: { limit: lic.rateLimitPerMinute, windowMs: DEFAULT_RATE_LIMIT.windowMs },
        share: config.progress.budgetShare,
        afterPass: async (pass) => void (await autoReturn.afterPass(pass)),
        jobs,
      })
    : undefined;
  // App Home's "Run the progress pass now" (admins) runs this very pass, at the same share of the budget.
  if (progressPass) deps.progressPass = progressPass;
  progressPass?.start();
  autoReturn.start();
  digest.start();
  stopper.add('desk', async (bulkLineMs) => {
    await Promise.all([
      desk.stop(bulkLineMs),
      selfService.stop(),
      settler.stop(),
      reclaim.stop(),
      progressPass?.stop().then(() => autoReturn.stop()),
      digest.stop(),
    ]);
  });
  // Once the drained work has told its outcome (src/kernel/config/shutdown.ts): the messages it queued go out before
  // Slack's side closes (bounded by the stop); the rest wait in the records for the next start.
  stopper.add('outbox', async () => {
    await outbox.flush().catch(() => 0);
    await outbox.stop();
  });
  // After the work that writes audit entries has told its outcome, before Slack goes (the local double).
  stopper.add('audit channel', async () => void (await audit.close(3000)));
  stopper.add('shared state', () => deps.desk?.close() ?? Promise.resolve());

  // The demo's signing secret is public, so the demo listens on loopback only.
  const listen = slack.mode === 'demo' ? { port: slack.port, host: '127.0.0.1' } : { port: slack.port };
  let started: unknown;
  try {
    started = slack.mode === 'socket' ? await app.start() : await app.start(listen);
    listening = true;
  } catch (error) {
    const problem = listenProblem(error, slack.port);
    throw problem ? new Error(problem, { cause: error }) : error;
  }
  const port = slack.mode === 'socket' ? slack.port : ((started as Server).address() as AddressInfo).port;
  // A service given by URL may still be a sandbox (`npm run sandbox`); it says so in every answer. One
  // read finds out before the start-up line and the banner; it never holds the start up long. It is
  // sent once the app listens: the licensing client's first request (its connection, its parser, the
  // rate limiter's file) cost some 50 ms of CPU before /healthz could answer otherwise.
  const probe =
    lic.mode === 'api'
      ? licensing.me({ priority: 'background' }).then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
  await Promise.race([probe, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  logger.info('License Desk started', {
    slack: slack.mode === 'socket' ? 'socket mode' : slack.mode === 'demo' ? 'local demo (http)' : 'http',
    port,
    licensing: lic.mode === 'api' && deps.sandbox ? 'sandbox (LICENSING_API_URL)' : lic.mode,
    startupMs: Math.round(performance.now()),
  });
  if (demoBanner) {
    const source = lic.mode === 'sandbox' ? 'in-process sandbox' : 'sandbox by URL';
    process.stdout.write(demoBanner(`http://127.0.0.1:${port}`, source));
  }
  if (localConsole) process.stdout.write(`Local console (plays Slack in your browser): http://localhost:${port}/\n\n`);
  if (consoleOff) process.stdout.write(`Local console: not served: ${consoleOff}.\n\n`);
}

/**
 * Drains the work in flight, closes every part by name (src/kernel/config/shutdown.ts), then exits. The handlers stay
 * installed for the whole stop: under `npm start` a signal to the process group (systemd's default
 * KillMode, Ctrl+C in a terminal) reaches this process twice, once directly and once forwarded by npm,
 * and Node's default action for a signal nobody listens to would end the drain at once. A signal
 * received again is logged and changes nothing; the way to stop at once is SIGKILL (docs/shutdown.md).
 */
function onShutdown(stopper: Stopper, logger: LevelledLogger): void {
  let stopping: NodeJS.Signals | undefined;
  let again = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping !== undefined) {
      again += 1;
      logger.warn('stopping: signal received again; the stop goes on', {
        signal,
        stopping,
        again,
        hint: 'the drain ends by itself within SHUTDOWN_DRAIN_SECONDS; SIGKILL stops at once; the next start settles the changes in flight',
      });
      return;
    }
    stopping = signal;
    // Every step is bounded; this is the backstop should one of them not be.
    setTimeout(() => process.exit(1), stopper.deadlineMs).unref();
    void stopper.stop(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function main(): Promise<void> {
  const envFile: EnvFileResult = loadEnvFile();
  if ('problem' in envFile) {
    process.stderr.write(`${envFile.problem}\n`);
    process.exit(1);
  }
  const result = readConfig();
  if (!result.ok) {
    const from = envFile.loaded ? `\nSettings were read from the environment and from ${envFile.path}.` : '';
    process.stderr.write(`${formatProblems(result.problems)}${from}\n`);
    process.exit(1);
  }
  const config = result.config;
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  installProcessErrorPolicy(logger);
  if (envFile.loaded) {
    const { message, fields } = describeEnvFile(envFile);
    logger.info(message, fields);
  }
  const stopper = createStopper({ logger, drainMs: config.drainMs });
  onShutdown(stopper, logger);
  try {
    await start(config, logger, stopper);
  } catch (error) {
    logger.error('License Desk could not start', { error });
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`License Desk could not start: ${createRedactor(secretsOf(config))(reason)}\n`);
    await stopper.closeAll();
    process.exit(1);
  }
}

await main();
