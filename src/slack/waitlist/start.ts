/**
 * Builds and starts the waitlist once the app exists (its bot client sends the DMs): the lines in
 * DATA_DIR/waitlist.json, the assign of a waiting request, the DMs, and the background check for
 * seats freed outside License Desk. src/main.ts and the tests call it; stop() ends the check and waits
 * briefly for seats being given, before the licensing client closes.
 */
import { join } from 'node:path';
import type { webApi } from '@slack/bolt';
import {
  createFileWaitlistStore,
  createWaitlist,
  type PoolLock,
  type Waitlist,
  type WaitlistAssignOutcome,
  type WaitlistEntry,
  type WaitlistStore,
} from '../../services/waitlist.js';
import { createRedisWaitlist } from '../../services/waitlist-redis.js';
import { createWaitlistWatch, type WaitlistWatch } from '../../services/waitlist-watch.js';
import type { AppDeps } from '../deps.js';
import { changeState } from '../state.js';
import { createSlackAssignWaitlisted } from './assign.js';
import { createSlackWaitlistNotifier } from './notifier.js';

export interface StartWaitlistOptions {
  dataDir: string;
  /** The licensing budget the background check takes its share of (HOME_BUDGET_SHARE). */
  rateLimit: { limit: number; windowMs: number };
  share: number;
  /** The assign of a waiting request; default: the requester's Slack e-mail and the assign use case. */
  assignWaitlisted?: (entry: WaitlistEntry) => Promise<WaitlistAssignOutcome>;
  /** REDIS_URL: the lines and the pool locks live in Redis, shared by every replica. */
  redisUrl?: string;
  /** Default: Redis with `redisUrl`, else DATA_DIR/waitlist.json and a lock per process. */
  store?: WaitlistStore;
  lock?: PoolLock;
  /** false: no timer (tests call watch.tick()). */
  autoStart?: boolean;
  /** Least time between two background checks; default 15 minutes. */
  intervalMs?: number;
}

export interface RunningWaitlist {
  waitlist: Waitlist;
  watch: WaitlistWatch;
  stop(): Promise<void>;
}

export function startWaitlist(client: webApi.WebClient, deps: AppDeps, opts: StartWaitlistOptions): RunningWaitlist {
  const logger = deps.logger;
  const shared = opts.redisUrl ? createRedisWaitlist({ url: opts.redisUrl, logger }) : undefined;
  const lock = opts.lock ?? shared?.lock;
  const waitlist = createWaitlist({
    store: opts.store ?? shared?.store ?? createFileWaitlistStore(join(opts.dataDir, 'waitlist.json'), logger),
    licensing: deps.licensing,
    assignWaitlisted: opts.assignWaitlisted ?? createSlackAssignWaitlisted(client, deps),
    notifier: createSlackWaitlistNotifier(client, deps),
    audit: { record: (entry) => changeState(deps).audit.record(entry) },
    ...(lock ? { lock } : {}),
    now: deps.now,
    logger,
  });
  const watch = createWaitlistWatch({
    waitlist,
    licensing: deps.licensing,
    now: deps.now,
    logger,
    limit: opts.rateLimit.limit,
    windowMs: opts.rateLimit.windowMs,
    share: opts.share,
    ...(opts.intervalMs ? { intervalMs: opts.intervalMs } : {}),
  });
  if (opts.autoStart !== false) watch.start();
  deps.waitlist = waitlist;
  return {
    waitlist,
    watch,
    async stop() {
      await watch.stop();
      await waitlist.stop(3000);
      await shared?.close();
    },
  };
}
