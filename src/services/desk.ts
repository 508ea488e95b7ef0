/**
 * The services behind App Home, alerts and bulk assignment, built once by the composition
 * root (src/main.ts, and the end-to-end harness) over one DATA_DIR: DATA_DIR/alerts.json (what was
 * announced, survives restarts; DATA_DIR/sandbox-alerts.json, fresh at each start, on the in-process
 * sandbox's data) and DATA_DIR/bulk/ (one file per bulk job). With REDIS_URL the
 * replicas share these through Redis instead (docs/deployment.md): the alert memory and the daily
 * check's lease, the App Home snapshot, the bulk jobs (a BullMQ queue and their rows), the repeat
 * guard (`shared`, handed to the Slack side by the composition root).
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { LicensingClient, Logger } from '../licensing/types.js';
import { type AlertService, alertStateFile, createAlertService, sharedAlertState } from './alerts.js';
import type { AuditLog } from './audit.js';
import { createDraftStore, type DraftStore } from './bulk.js';
import { createBulkJobStore } from './bulk-jobs.js';
import { type BulkRunner, createBulkRunner } from './bulk-runner.js';
import { createDashboard, type Dashboard } from './dashboard.js';
import { type DayLock, sharedDayLock } from './scheduler.js';
import { createMemoryStore, type SharedStore } from './shared-store.js';
import { ensureDir } from './state-store.js';
import type { WorkTracker } from './work-tracker.js';

export interface Desk {
  dataDir: string;
  dashboard: Dashboard;
  alerts: AlertService;
  runner: BulkRunner;
  drafts: DraftStore;
  /** The state the replicas share (Redis), or this process's own (memory) without REDIS_URL. */
  shared: SharedStore;
  /** With REDIS_URL: the daily alert check runs in one replica a day. */
  alertLock?: DayLock;
  /** Closes the Redis connections (after the runner and scheduler stopped). */
  close(): Promise<void>;
}

export interface DeskOptions {
  licensing: LicensingClient;
  logger: Logger;
  now: () => Date;
  dataDir: string;
  /** The licensing budget the dashboard takes its share of. */
  rateLimit: { limit: number; windowMs: number };
  homeBudgetShare: number;
  /** Read at each use: the app may build the audit log after the desk. */
  audit?: () => AuditLog | undefined;
  /** The app's work in flight: a running bulk job is part of it (docs/shutdown.md). */
  work?: WorkTracker;
  /** REDIS_URL: replicas share state and bulk jobs through it. */
  redisUrl?: string;
  /** With redisUrl: how long a dead replica's bulk job waits before another takes it; default 30 s. */
  bulkTakeoverMs?: number;
  /**
   * The licensing data is the in-process sandbox's, seeded afresh at each start: without REDIS_URL its
   * alert memory is a file of its own (DATA_DIR/sandbox-alerts.json), emptied here, so a demo on fresh
   * data starts with fresh memory and a real deployment's alerts.json is never touched.
   */
  sandboxRun?: boolean;
}

export async function createDesk(opts: DeskOptions): Promise<Desk> {
  await ensureDir(opts.dataDir);
  const logger = opts.logger;
  const audit: Pick<AuditLog, 'record' | 'recent'> = {
    record: async (entry) => {
      await opts.audit?.()?.record(entry);
    },
    recent: async (limit) => (await opts.audit?.()?.recent(limit)) ?? [],
  };
  // Redis and BullMQ are loaded only with REDIS_URL: a single process starts without them.
  const shared = opts.redisUrl
    ? (await import('./shared-store-redis.js')).createRedisStore(opts.redisUrl, logger)
    : createMemoryStore();
  let jobs: Redis | undefined;
  let bulk: Pick<Parameters<typeof createBulkRunner>[0], 'store' | 'queue'>;
  if (opts.redisUrl) {
    const [{ Redis }, { createRedisBulkJobStore }, { createBulkQueue }] = await Promise.all([
      import('ioredis'),
      import('./bulk-jobs-redis.js'),
      import('./bulk-queue.js'),
    ]);
    jobs = new Redis(opts.redisUrl, { maxRetriesPerRequest: 3, connectionName: 'license-desk-bulk-jobs' });
    jobs.on('error', () => undefined);
    const store = createRedisBulkJobStore(jobs);
    const queue = createBulkQueue({ redisUrl: opts.redisUrl, logger, takeoverMs: opts.bulkTakeoverMs ?? 30_000 });
    bulk = { store, queue: { queue, own: (id) => store.own(id) } };
  } else {
    bulk = { store: createBulkJobStore(join(opts.dataDir, 'bulk')) };
  }
  let alertFile = join(opts.dataDir, 'alerts.json');
  if (opts.sandboxRun && !shared.shared) {
    alertFile = join(opts.dataDir, 'sandbox-alerts.json');
    await rm(alertFile, { force: true });
  }
  return {
    dataDir: opts.dataDir,
    shared,
    ...(shared.shared ? { alertLock: sharedDayLock(shared, 'alerts:daily', randomBytes(8).toString('hex')) } : {}),
    async close() {
      await shared.close();
      await jobs?.quit().catch(() => jobs?.disconnect());
    },
    dashboard: createDashboard({
      licensing: opts.licensing,
      audit,
      now: opts.now,
      logger,
      limit: opts.rateLimit.limit,
      windowMs: opts.rateLimit.windowMs,
      share: opts.homeBudgetShare,
      ...(shared.shared ? { shared } : {}),
    }),
    alerts: createAlertService({
      licensing: opts.licensing,
      file: shared.shared ? sharedAlertState(shared) : alertStateFile(alertFile, logger),
      now: opts.now,
      logger,
    }),
    runner: createBulkRunner({
      licensing: opts.licensing,
      ...bulk,
      audit,
      logger,
      now: opts.now,
      work: opts.work,
    }),
    drafts: createDraftStore(() => opts.now().getTime()),
  };
}
