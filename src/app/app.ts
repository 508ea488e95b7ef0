/**
 * The Bolt App's transport (createBoltApp), its listeners (registerListeners) and its start-up check
 * (initApp), in the order the composition root (src/app/compose.ts) calls them. Transport only here;
 * behaviour lives in each feature's slack/ listeners.
 */

import type { ServerResponse } from 'node:http';
import { App, type Logger as BoltLogger, type CustomRoute, type webApi } from '@slack/bolt';
import { DISK_FULL_SENTENCE, isDiskFull } from '../kernel/db/disk-full.js';

/** What Bolt passes to an extended error handler (not re-exported by @slack/bolt's index). */
interface ErrorHandlerArgs {
  error: Error;
  body: unknown;
}

import { registerBulk } from '../bulk/slack/index.js';
import { registerActions } from '../changes/slack/actions/index.js';
import { registerShortcuts } from '../changes/slack/shortcuts/index.js';
import { registerViews } from '../changes/slack/views/index.js';
import type { AuditPostingOptions } from '../kernel/services/audit-queue.js';
import type { AppDeps } from '../kernel/slack/deps.js';
import { createDrainingMiddleware } from '../kernel/slack/draining.js';
import { createHealthCheck } from '../kernel/slack/health.js';
import { createSlackHttpReceiver } from '../kernel/slack/http-receiver.js';
import { toBoltLogger } from '../kernel/slack/logger.js';
import type { Surface } from '../kernel/slack/state.js';
import { acknowledgeUnhandled } from '../kernel/slack/unhandled.js';
import { registerLearners } from '../learners/index.js';
import { registerReclaim } from '../reclaim/slack/index.js';
import { registerRequests } from '../requests/slack/index.js';
import { withWaitlist } from '../requests/slack/waitlist/home.js';
import { registerWaitlist } from '../requests/slack/waitlist/index.js';
import { registerCommands } from './commands/register.js';
import { registerEvents } from './events.js';

export type SlackTransport =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl?: string }
  | { mode: 'socket'; botToken: string; signingSecret: string; appToken: string; apiUrl?: string; port?: number };

export interface CreateAppOptions {
  slack: SlackTransport;
  /** Bolt's own log lines; default: deps.logger at info. */
  boltLogger?: BoltLogger;
  /** Web API retry policy; default a few quick retries (tests pass { retries: 0 }). */
  retryConfig?: webApi.RetryOptions;
  /** Web API request timeout; default 10 s (the client's own default is none). */
  slackTimeoutMs?: number;
  /** The audit channel's post queue: pace, refusal folding, bound, timers; default Slack's pace. */
  auditPosting?: AuditPostingOptions;
  /** Local demo only: the Slack double's URL, shown on /healthz so `npm run try` can read what it recorded. */
  localSlackUrl?: string;
  /** More HTTP routes on the app's port (the local console's page and endpoints). */
  routes?: CustomRoute[];
}

/** A few quick retries: a person is waiting, and the default policy retries for 30 minutes. */
export const SLACK_RETRY_POLICY: webApi.RetryOptions = { retries: 2, factor: 1.5, minTimeout: 200, maxTimeout: 1000 };
export const EVENTS_PATH = '/slack/events';
export const HEALTH_PATH = '/healthz';

/** Thrown when Slack refuses the bot token or cannot be reached at start-up. */
export class SlackStartupError extends Error {
  override readonly name = 'SlackStartupError';
}

const TOKEN_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired']);

/**
 * The Bolt App on its transport, with the health endpoint, the error handler and the acknowledgement
 * of what no listener takes, but no listener yet: the composition root (src/app/compose.ts) builds
 * what needs the app's own Slack client (the audit trail, the features) before it registers them.
 */
export function createBoltApp(deps: AppDeps, options: CreateAppOptions): App {
  const { slack } = options;
  const check = createHealthCheck(
    { ...(deps.records ? { database: deps.records } : {}), ...(deps.redis ? { redis: deps.redis } : {}) },
    deps.logger,
  );
  const health = (_req: unknown, res: ServerResponse) => {
    void check(deps.sandbox).then(({ status, body }) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      const local = options.localSlackUrl ? { localSlack: options.localSlackUrl } : {};
      res.end(JSON.stringify({ ...body, ...local }));
    });
  };
  const customRoutes = [{ path: HEALTH_PATH, method: ['GET'], handler: health }, ...(options.routes ?? [])];
  const boltLogger = options.boltLogger ?? toBoltLogger(deps.logger);
  const app = new App({
    token: slack.botToken,
    signingSecret: slack.signingSecret,
    endpoints: EVENTS_PATH,
    customRoutes,
    ...(slack.mode === 'socket'
      ? { socketMode: true, appToken: slack.appToken, installerOptions: { port: slack.port ?? 3000 } }
      : {
          // Bolt's HTTPReceiver behind a guard: body cap, bounded reads, timeouts, timestamp window,
          // malformed bodies refused (src/kernel/slack/http-receiver.ts). It takes the routes and secret above.
          receiver: createSlackHttpReceiver({
            signingSecret: slack.signingSecret,
            endpoint: EVENTS_PATH,
            customRoutes,
            boltLogger,
            logger: deps.logger,
          }),
        }),
    logger: boltLogger,
    clientOptions: {
      ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
      retryConfig: options.retryConfig ?? SLACK_RETRY_POLICY,
      // A 429 surfaces at once instead of pausing every Slack call of the process for Retry-After.
      rejectRateLimitedCalls: true,
      timeout: options.slackTimeoutMs ?? 10_000,
    },
    // auth.test runs in the constructor otherwise, un-awaited: an unreachable Slack crashes the process
    // with an unhandled rejection (platform.md section 4.4). initApp() below awaits it instead.
    deferInitialization: true,
    extendedErrorHandler: true,
  });
  app.error(createErrorHandler(deps));
  acknowledgeUnhandled(app, deps.logger);
  return app;
}

/**
 * Every listener, registered once with the app's state and the finished deps: the work tracker first
 * of our middleware (while stopping, nothing else runs; until then, every request is counted).
 */
export function registerListeners(app: App, surface: Surface): void {
  app.use(createDrainingMiddleware(surface.deps, surface.state.work));
  registerCommands(app, surface);
  registerActions(app, surface);
  registerEvents(app, surface, { sections: withWaitlist });
  registerBulk(app, surface);
  registerViews(app, surface);
  registerShortcuts(app, surface);
  registerWaitlist(app, surface);
  registerRequests(app, surface);
  registerReclaim(app, surface);
  registerLearners(app, surface);
}

/** auth.test with the bot token: a refused token or an unreachable Slack stops the start, with its sentence. */
export async function initApp(app: App, apiUrl: string | undefined): Promise<void> {
  try {
    await app.init();
  } catch (error) {
    throw startupError(error, apiUrl);
  }
}

function startupError(error: unknown, apiUrl: string | undefined): SlackStartupError {
  const code = (error as { data?: { error?: unknown } }).data?.error;
  if (typeof code === 'string' && TOKEN_ERRORS.has(code)) {
    return new SlackStartupError(
      `Slack refused the bot token (${code}): copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions into SLACK_BOT_TOKEN, and reinstall the app if it was removed`,
      { cause: error },
    );
  }
  const where = apiUrl ?? 'https://slack.com/api/';
  const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return new SlackStartupError(`Could not check the bot token with Slack at ${where} (${reason})`, { cause: error });
}

const SORRY =
  'Sorry, something went wrong on our side while handling that. Please try again in a moment; if it keeps happening, ask';

/**
 * The last stop for listener errors: one structured log line, one polite sentence to the user (never
 * a stack or an internal message), then rethrow so an unacknowledged request fails fast (500)
 * instead of timing out after 3 s (platform.md section 8.5).
 */
export function createErrorHandler(deps: AppDeps) {
  return async ({ error, body }: ErrorHandlerArgs): Promise<void> => {
    const b = (body ?? {}) as Record<string, unknown>;
    const user = b.user_id ?? (b.user as { id?: unknown } | undefined)?.id;
    const diskFull = isDiskFull(error);
    deps.logger.error('listener failed', {
      error,
      ...(diskFull ? { problem: 'the disk is full' } : {}),
      kind: b.command ? 'command' : (b.type ?? 'unknown'),
      ...(typeof b.command === 'string' ? { command: b.command } : {}),
      ...(typeof user === 'string' ? { user } : {}),
    });
    const responseUrl = b.response_url;
    if (typeof responseUrl === 'string' && /^https?:\/\//.test(responseUrl)) {
      const text = diskFull ? DISK_FULL_SENTENCE : `${SORRY} ${deps.roles.whoToAsk()} to check License Desk's log.`;
      try {
        await fetch(responseUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text }),
          signal: AbortSignal.timeout(5000),
        });
      } catch (postError) {
        deps.logger.warn('could not tell the user about the failure', { error: postError });
      }
    }
    throw error;
  };
}
