/**
 * Builds self-service course requests and their waitlist as one feature, before createApp (src/main.ts
 * and the test harness put the result in AppDeps): the request service over its store, the waitlist
 * of approved requests for full pools (DATA_DIR/waitlist.json, or Redis with REDIS_URL), whose
 * freed seats go through the request service's assign, the DMs and cards over the app's bot client,
 * the reminder and expiry check and the waitlist's background check. The bot client and the audit
 * trail exist only once createApp has run, so both are asked for when first used.
 */
import { join } from 'node:path';
import type { webApi } from '@slack/bolt';
import type { RequestLimits, RequestStore, RequestTimers } from '../../domain/requests.js';
import type { AuditLog } from '../../services/audit.js';
import { createRequestCheck } from '../../services/requests/check.js';
import { createRequestService, type RequestService } from '../../services/requests/service.js';
import {
  createFileWaitlistStore,
  createWaitlist,
  type PoolLock,
  type Waitlist,
  type WaitlistStore,
} from '../../services/waitlist.js';
import { createRedisWaitlist } from '../../services/waitlist-redis.js';
import { createWaitlistWatch, type WaitlistWatch } from '../../services/waitlist-watch.js';
import type { AppDeps } from '../deps.js';
import { createSlackWaitlistNotifier } from '../waitlist/notifier.js';
import type { RequestsDeps } from './deps.js';
import { createRequestEvents } from './notify.js';
import { createRequesterName, createRequesterPresence } from './presence.js';

export interface WaitlistSetup {
  dataDir: string;
  /** The licensing budget the background check takes its share of (HOME_BUDGET_SHARE). */
  rateLimit: { limit: number; windowMs: number };
  share: number;
  /** REDIS_URL: the lines and the pool locks live in Redis, shared by every replica. */
  redisUrl?: string | undefined;
  /** Default: Redis with `redisUrl`, else DATA_DIR/waitlist.json and a lock per process. */
  store?: WaitlistStore;
  lock?: PoolLock;
  /** Least time between two background checks; default 15 minutes. */
  intervalMs?: number;
}

export interface SelfServiceOptions {
  /** The app's bot client, asked for once createApp has built it. */
  client: () => webApi.WebClient;
  /** The app's audit trail, asked for once createApp has built it. */
  audit: () => AuditLog | undefined;
  store: RequestStore;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin (LICENSE_ADMINS user ids) by DM. */
  channel?: string | undefined;
  timers: RequestTimers;
  /** Without it, approving for a full pool offers only a recycle (transferable pools). */
  waitlist?: WaitlistSetup | undefined;
  /** How often the reminder and expiry check runs once started; default 5 minutes. */
  checkEveryMs?: number;
  /** REQUEST_MAX_OPEN and REQUEST_MAX_PER_DAY; default 3 and 10. */
  limits?: RequestLimits | undefined;
}

export interface SelfService {
  requests: RequestsDeps;
  waitlist: Waitlist | undefined;
  /** The background check for seats freed outside License Desk (tests call tick()). */
  watch: WaitlistWatch | undefined;
  /** Starts the timers of the reminder and expiry check and of the background check. */
  start(): void;
  /** Ends both checks, waits briefly for seats being given; before the licensing client closes. */
  stop(): Promise<void>;
}

/** The audit trail createApp builds, asked for on each use (an entry before it exists is logged). */
function lateAudit(get: () => AuditLog | undefined, deps: Pick<AppDeps, 'logger'>): AuditLog {
  const nothing = { posted: 0, unsent: 0 };
  return {
    record: (entry) => {
      const log = get();
      if (log) return log.record(entry);
      deps.logger.warn('audit entry before the app was built; logged only', { action: entry.action });
      return Promise.resolve();
    },
    recent: (limit) => get()?.recent(limit) ?? Promise.resolve([]),
    flush: (timeoutMs) => get()?.flush(timeoutMs) ?? Promise.resolve(nothing),
    close: (timeoutMs) => get()?.close(timeoutMs) ?? Promise.resolve(nothing),
  };
}

/** `deps` is the AppDeps the result goes into (its logger, roles, sandbox marker and clock are read live). */
export function buildSelfService(deps: AppDeps, opts: SelfServiceOptions): SelfService {
  const { logger } = deps;
  const audit = lateAudit(opts.audit, deps);
  const cards = { store: opts.store, channel: opts.channel, timers: opts.timers };
  const setup = opts.waitlist;
  const shared = setup?.redisUrl ? createRedisWaitlist({ url: setup.redisUrl, logger }) : undefined;
  // The waitlist gives a seat through the request service, which puts requests in the waitlist.
  let service: RequestService | undefined;
  const lock = setup?.lock ?? shared?.lock;
  const waitlist = setup
    ? createWaitlist({
        store: setup.store ?? shared?.store ?? createFileWaitlistStore(join(setup.dataDir, 'waitlist.json'), logger),
        licensing: deps.licensing,
        assignWaitlisted: (entry) => {
          if (!service) throw new Error('the request service is not built yet');
          return service.assignWaitlisted(entry);
        },
        notifier: createSlackWaitlistNotifier(opts.client, deps),
        audit,
        ...(lock ? { lock } : {}),
        now: deps.now,
        logger,
      })
    : undefined;
  service = createRequestService({
    store: opts.store,
    licensing: deps.licensing,
    audit,
    events: createRequestEvents(opts.client, deps, cards),
    now: deps.now,
    logger,
    timers: opts.timers,
    waitlist,
    presence: createRequesterPresence(opts.client, deps.roles),
    nameOf: createRequesterName(opts.client),
    limits: opts.limits,
    work: deps.work,
  });
  const check = createRequestCheck(service, logger, opts.checkEveryMs);
  const watch =
    setup && waitlist
      ? createWaitlistWatch({
          waitlist,
          licensing: deps.licensing,
          now: deps.now,
          logger,
          limit: setup.rateLimit.limit,
          windowMs: setup.rateLimit.windowMs,
          share: setup.share,
          ...(setup.intervalMs ? { intervalMs: setup.intervalMs } : {}),
        })
      : undefined;
  return {
    requests: { ...cards, service, check },
    waitlist,
    watch,
    start() {
      check.start();
      watch?.start();
    },
    async stop() {
      await check.stop();
      await watch?.stop();
      await waitlist?.stop(3000);
      await shared?.close();
    },
  };
}
