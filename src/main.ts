/**
 * Composition root: read the configuration, start what stands in for missing services (sandbox,
 * local Slack double), build the licensing client and the app, start it, stop cleanly on SIGTERM.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp, type SlackTransport } from './app.js';
import { type Config, formatProblems, readConfig, secretsOf } from './config.js';
import { createLicensingClient, DEFAULT_RATE_LIMIT } from './licensing/index.js';
import { startSandbox } from './sandbox/index.js';
import { createDesk } from './services/desk.js';
import { DEMO_BOT_TOKEN, DEMO_SIGNING_SECRET, DEMO_SLACK_USERS, demoBanner } from './slack/demo.js';
import type { AppDeps } from './slack/deps.js';
import { startDesk } from './slack/events/desk.js';
import { startLocalSlack } from './slack/local-slack.js';
import { createLogger, createRedactor, type LevelledLogger, toBoltLogger } from './slack/logger.js';
import { createRoleResolver } from './slack/roles.js';

type Closer = { name: string; close: () => Promise<void> };

async function start(config: Config, logger: LevelledLogger, closers: Closer[]): Promise<void> {
  const lic = config.licensing;
  let licensingApi = lic.mode === 'api' ? { url: lic.url, token: lic.token } : undefined;
  if (!licensingApi) {
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: { limit: lic.rateLimitPerMinute } });
    closers.push({ name: 'sandbox', close: () => sandbox.close() });
    licensingApi = { url: sandbox.url, token: sandbox.adminToken };
    logger.warn(
      'SANDBOX MODE: LICENSING_API_URL and LICENSING_API_TOKEN are unset, so an in-process licensing sandbox with demo data stands in for the licensing API; nothing is real',
      { sandboxUrl: sandbox.url },
    );
  }
  const licensing = createLicensingClient({
    baseUrl: licensingApi.url,
    token: licensingApi.token,
    timeouts: { connectMs: Math.min(5000, lic.timeoutMs), headersMs: lic.timeoutMs, bodyMs: lic.timeoutMs },
    rateLimit: { limit: lic.rateLimitPerMinute, ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}) },
    cacheTtlMs: lic.cacheTtlMs,
    dataDir: config.dataDir,
    logger: logger.child({ component: 'licensing' }),
  });
  closers.unshift({ name: 'licensing client', close: () => licensing.close() });

  const { slack } = config;
  let transport: SlackTransport;
  if (slack.mode === 'demo') {
    const local = await startLocalSlack({ users: DEMO_SLACK_USERS, botToken: DEMO_BOT_TOKEN });
    closers.push({ name: 'local Slack', close: () => local.close() });
    transport = { mode: 'http', botToken: DEMO_BOT_TOKEN, signingSecret: DEMO_SIGNING_SECRET, apiUrl: local.apiUrl };
  } else {
    transport = slack;
  }

  const deps: AppDeps = {
    licensing,
    roles: createRoleResolver({ admins: config.admins, viewers: config.viewers, logger }),
    logger,
    now: () => new Date(),
    sandbox: lic.mode === 'sandbox',
    ...(config.auditChannel ? { auditChannel: config.auditChannel } : {}),
    // The audit trail survives restarts beside the alert memory and bulk jobs (Home shows recent changes).
    auditFile: join(config.dataDir, 'audit.jsonl'),
  };
  deps.desk = await createDesk({
    licensing,
    logger: logger.child({ component: 'desk' }),
    now: deps.now,
    dataDir: config.dataDir,
    rateLimit: { limit: lic.rateLimitPerMinute, windowMs: DEFAULT_RATE_LIMIT.windowMs },
    homeBudgetShare: config.homeBudgetShare,
    audit: () => deps.audit,
  });
  const app = await createApp(deps, {
    slack: transport,
    boltLogger: toBoltLogger(logger.child({ component: 'bolt' }), config.logLevel),
  });
  closers.unshift({ name: 'app', close: () => app.stop().then(() => undefined) });
  // After the app (its bot client posts alerts and bulk progress), stopped before the licensing client.
  const desk = await startDesk(app.client, deps, { alerts: config.alerts });
  closers.splice(1, 0, { name: 'alerts and bulk jobs', close: () => desk.stop() });

  // The demo's signing secret is public, so the demo listens on loopback only.
  const listen = slack.mode === 'demo' ? { port: slack.port, host: '127.0.0.1' } : { port: slack.port };
  const started = slack.mode === 'socket' ? await app.start() : await app.start(listen);
  const port = slack.mode === 'socket' ? slack.port : ((started as Server).address() as AddressInfo).port;
  logger.info('License Desk started', {
    slack: slack.mode === 'socket' ? 'socket mode' : slack.mode === 'demo' ? 'local demo (http)' : 'http',
    port,
    licensing: lic.mode,
    startupMs: Math.round(performance.now()),
  });
  if (slack.mode === 'demo') process.stdout.write(demoBanner(`http://127.0.0.1:${port}`, lic.mode === 'sandbox'));
}

function onShutdown(logger: LevelledLogger, closers: Closer[]): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    // A stuck close must not keep the process from exiting (the orchestrator would kill it anyway).
    setTimeout(() => process.exit(1), 10_000).unref();
    for (const c of closers) {
      await c.close().catch((error: unknown) => logger.warn(`could not close the ${c.name}`, { error }));
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

async function main(): Promise<void> {
  const result = readConfig();
  if (!result.ok) {
    process.stderr.write(`${formatProblems(result.problems)}\n`);
    process.exit(1);
  }
  const config = result.config;
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });
  const closers: Closer[] = [];
  onShutdown(logger, closers);
  try {
    await start(config, logger, closers);
  } catch (error) {
    logger.error('License Desk could not start', { error });
    const reason = error instanceof Error ? error.message : String(error);
    process.stderr.write(`License Desk could not start: ${createRedactor(secretsOf(config))(reason)}\n`);
    for (const c of closers) await c.close().catch(() => undefined);
    process.exit(1);
  }
}

await main();
