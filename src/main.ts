/**
 * The start: read the configuration, start what stands in for missing services (sandbox, local Slack
 * double, console), open the records, build the app with the composition root (src/app/compose.ts),
 * start its jobs, listen, and stop cleanly on SIGTERM.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { SlackTransport } from './app/app.js';
import { usageHint } from './app/commands/index.js';
import { type ComposedApp, composeApp } from './app/compose.js';
import { hintOldFiles } from './app/old-records.js';
import { settingsOf } from './app/settings.js';
import type { RunningDesk } from './home/index.js';
import { COMMAND } from './kernel/blocks/ids.js';
import { type Config, formatProblems, readConfig, secretsOf } from './kernel/config/config.js';
import { DEMO_BOT_TOKEN, DEMO_SIGNING_SECRET } from './kernel/config/demo-credentials.js';
import { describeEnvFile, type EnvFileResult, loadEnvFile } from './kernel/config/env-file.js';
import { installProcessErrorPolicy } from './kernel/config/process-errors.js';
import { createStopper, type Stopper } from './kernel/config/shutdown.js';
import { openRecords } from './kernel/db/open.js';
import { createLicensingClient } from './kernel/licensing/index.js';
import { probeSandbox, type SandboxProbe } from './kernel/licensing/sandbox-probe.js';
import { createLogger, createRedactor, type LevelledLogger, toBoltLogger } from './kernel/slack/logger.js';
import { unreadableRequests } from './requests/index.js';

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

/** The licensing service: LICENSING_API_URL's, or an in-process sandbox with demo data standing in for it. */
async function licensingService(config: Config, logger: LevelledLogger, stopper: Stopper) {
  const lic = config.licensing;
  if (lic.mode === 'api') return { url: lic.url, token: lic.token };
  const { startSandbox } = await import('../local/sandbox/index.js');
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: { limit: lic.rateLimitPerMinute } });
  stopper.add('sandbox', () => sandbox.close());
  logger.warn(
    'SANDBOX MODE: LICENSING_API_URL and LICENSING_API_TOKEN are unset, so an in-process licensing sandbox with demo data stands in for the licensing API; nothing is real',
    { sandboxUrl: sandbox.url },
  );
  return { url: sandbox.url, token: sandbox.adminToken };
}

/**
 * The licensing client, and with REDIS_URL the one Redis factory (services/redis.ts), keys prefixed per
 * licensing account; each closed by its name (src/kernel/config/shutdown.ts STOP_ORDER).
 */
async function connectLicensing(config: Config, dataDir: string, logger: LevelledLogger, stopper: Stopper) {
  const lic = config.licensing;
  const api = await licensingService(config, logger, stopper);
  const redisModule = config.redisUrl ? await import('./kernel/services/redis.js') : undefined;
  const redis =
    config.redisUrl && redisModule
      ? redisModule.createRedisConnections(config.redisUrl, redisModule.redisPrefix(api.url, api.token))
      : undefined;
  if (redis) stopper.add('redis', () => redis.close());
  const licensing = createLicensingClient({
    baseUrl: api.url,
    token: api.token,
    timeouts: { connectMs: Math.min(5000, lic.timeoutMs), headersMs: lic.timeoutMs, bodyMs: lic.timeoutMs },
    rateLimit: { limit: lic.rateLimitPerMinute, ...(redis ? { redis } : {}) },
    cacheTtlMs: lic.cacheTtlMs,
    dataDir,
    logger: logger.child({ component: 'licensing' }),
  });
  // By the time a stop closes it, the drain is over: what is still in flight is ended at once.
  stopper.add('licensing client', () => licensing.close({ abort: true }));
  return { licensing, redis };
}

type LocalConsole = Exclude<Awaited<ReturnType<typeof openLocalConsole>>, { off: string }>;

/**
 * Slack, or in the local demo the local Slack double (with the local console in front of it when
 * asked): the transport the app talks through, and what the local mode shows.
 */
async function slackSide(config: Config, logger: LevelledLogger, stopper: Stopper) {
  const { slack } = config;
  // The local console (a browser page that plays Slack) sits in front of the local Slack double.
  const opened = config.console ? await openLocalConsole(config, logger) : undefined;
  const localConsole: LocalConsole | undefined = opened && !('off' in opened) ? opened : undefined;
  const consoleOff = opened && 'off' in opened ? opened.off : undefined;
  if (slack.mode !== 'demo') return { transport: slack as SlackTransport, localConsole, consoleOff };
  const [{ startLocalSlack }, demo] = await Promise.all([
    import('../local/slack/local-slack.js'),
    import('../local/slack/demo.js'),
  ]);
  const local = await startLocalSlack({
    users: demo.DEMO_SLACK_USERS,
    botToken: DEMO_BOT_TOKEN,
    ...(localConsole ? { intercept: localConsole.intercept, onResponse: localConsole.onResponse } : {}),
  });
  localConsole?.attach(local);
  stopper.add('local Slack', () => local.close());
  const transport: SlackTransport = {
    mode: 'http',
    botToken: DEMO_BOT_TOKEN,
    signingSecret: DEMO_SIGNING_SECRET,
    apiUrl: local.apiUrl,
  };
  return { transport, localConsole, consoleOff, localSlackUrl: local.url, demoBanner: demo.demoBanner };
}

/**
 * The records (docs/records.md): a damaged or unreachable database stops the start here, before any
 * listener could answer over lost records. Closed last of what writes.
 */
async function openTheRecords(config: Config, dataDir: string, logger: LevelledLogger, stopper: Stopper) {
  const records = await openRecords({
    dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  });
  stopper.add('records', () => records.close());
  logger.info('records opened', { database: records.dialect, where: records.where });
  // The files of an earlier version are imported by npm run import-old-records, never by a start:
  // one left there is named in one line, and the start goes on without it.
  await hintOldFiles(dataDir, logger);
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
  return records;
}

/** The local console's controls and demo data, once the app is built (the local demo only). */
function wireConsole(
  localConsole: LocalConsole,
  composed: ComposedApp,
  desk: RunningDesk | undefined,
  logger: LevelledLogger,
) {
  const { records, deps, digest } = composed;
  // Progress records for the digest, before any daily pass ran (sandbox data only), in the
  // background: demo data must not delay the start.
  const consoleLog = logger.child({ component: 'console' });
  if (records)
    void import('../local/console/progress-demo.js')
      .then(({ seedDemoProgress }) => seedDemoProgress(records, deps.licensing, deps.now(), consoleLog))
      .catch((error: unknown) => consoleLog.warn('console: demo progress not seeded', { error: String(error) }));
  // The demo's pool admin (docs/console.md): its role given once, when the records hold none.
  if (records)
    void import('../local/console/demo.js')
      .then(({ seedDemoRoles }) => seedDemoRoles(records, deps.now(), consoleLog))
      .catch((error: unknown) => consoleLog.warn('console: demo roles not seeded', { error: String(error) }));
  if (desk?.scheduler) localConsole.setAlertCheck((userId) => desk.checkNow(userId));
  if (digest) localConsole.setDigestPost(() => digest.postNow());
}

/** Listens (or connects, in socket mode); a port someone else holds is named with the setting that fixes it. */
async function listen(config: Config, composed: ComposedApp): Promise<number> {
  const { slack } = config;
  // The demo's signing secret is public, so the demo listens on loopback only.
  const at = slack.mode === 'demo' ? { port: slack.port, host: '127.0.0.1' } : { port: slack.port };
  try {
    const started = await composed.listen(at);
    return slack.mode === 'socket' ? slack.port : ((started as Server).address() as AddressInfo).port;
  } catch (error) {
    const problem = listenProblem(error, slack.port);
    throw problem ? new Error(problem, { cause: error }) : error;
  }
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
  const { licensing, redis } = await connectLicensing(config, dataDir, logger, stopper);
  const side = await slackSide(config, logger, stopper);
  const records = await openTheRecords(config, dataDir, logger, stopper);
  // The in-process sandbox, or a licensing service that says it is one: read on every reply.
  const sandbox = () => lic.mode === 'sandbox' || provenSandbox || licensing.isSandbox?.() === true;
  const composed = await composeApp(settingsOf(config, { dataDir, sandbox }), {
    licensing,
    records,
    ...(redis ? { redis } : {}),
    slack: side.transport,
    logger,
    now: () => new Date(),
    boltLogger: toBoltLogger(logger.child({ component: 'bolt' }), config.logLevel),
    ...(side.localConsole ? { routes: side.localConsole.routes } : {}),
    ...(side.localSlackUrl ? { localSlackUrl: side.localSlackUrl } : {}),
  });
  // Which work is in flight (requests, changes, bulk jobs): a stop waits for it (src/kernel/config/shutdown.ts).
  stopper.watch(composed.work);
  const { stops } = composed;
  stopper.add('app', async () => {
    // The console's event streams end first: an open stream would keep the app's HTTP server from closing.
    side.localConsole?.close();
    await stops.app(0);
  });
  for (const part of ['desk', 'outbox', 'audit channel', 'shared state'] as const) stopper.add(part, stops[part]);
  const desk = await composed.jobs.start();
  if (side.localConsole) wireConsole(side.localConsole, composed, desk, logger);
  const port = await listen(config, composed);
  await sandboxProbe(config, composed);
  logger.info('License Desk started', {
    slack: config.slack.mode === 'socket' ? 'socket mode' : config.slack.mode === 'demo' ? 'local demo (http)' : 'http',
    port,
    licensing: lic.mode === 'api' && composed.deps.sandbox ? 'sandbox (LICENSING_API_URL)' : lic.mode,
    startupMs: Math.round(performance.now()),
  });
  if (side.demoBanner) {
    const source = lic.mode === 'sandbox' ? 'in-process sandbox' : 'sandbox by URL';
    process.stdout.write(side.demoBanner(`http://127.0.0.1:${port}`, source));
  }
  if (side.localConsole)
    process.stdout.write(`Local console (plays Slack in your browser): http://localhost:${port}/\n\n`);
  if (side.consoleOff) process.stdout.write(`Local console: not served: ${side.consoleOff}.\n\n`);
}

/**
 * A service given by URL may still be a sandbox (`npm run sandbox`); it says so in every answer. One
 * read finds out before the start-up line and the banner; it never holds the start up long. It is
 * sent once the app listens: the licensing client's first request (its connection, its parser, the
 * rate limiter's file) cost some 50 ms of CPU before /healthz could answer otherwise.
 */
async function sandboxProbe(config: Config, composed: ComposedApp): Promise<void> {
  if (config.licensing.mode !== 'api') return;
  const probe = composed.deps.licensing.me({ priority: 'background' }).then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([probe, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
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
