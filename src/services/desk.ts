/**
 * The services behind App Home, alerts and bulk assignment, built once by the composition
 * root (src/main.ts, and the end-to-end harness) over one DATA_DIR: DATA_DIR/alerts.json (what was
 * announced, survives restarts; DATA_DIR/sandbox-alerts.json, fresh at each start, on the in-process
 * sandbox's data); bulk jobs live in the database (`records`, bulk-jobs.ts), for one process and
 * for replicas alike. With REDIS_URL the replicas share the rest through Redis instead
 * (docs/deployment.md): the alert memory and the daily check's lease, the App Home snapshot, the
 * repeat guard and the audit's recent list (`shared`, handed to the Slack side by the composition root).
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Records } from '../db/open.js';
import type { LicensingClient, Logger } from '../licensing/types.js';
import { type AlertService, alertStateFile, createAlertService, sharedAlertState } from './alerts.js';
import type { AuditLog } from './audit.js';
import { createDraftStore, type DraftStore } from './bulk.js';
import { importBulkFiles } from './bulk-import.js';
import { createBulkJobStore, DEFAULT_TAKEOVER_MS } from './bulk-jobs.js';
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
  /** The database the bulk jobs live in (SQLite: one process; PostgreSQL: shared by the replicas). */
  records: Records;
  /** The licensing budget the dashboard takes its share of. */
  rateLimit: { limit: number; windowMs: number };
  homeBudgetShare: number;
  /** Read at each use: the app may build the audit log after the desk. */
  audit?: () => AuditLog | undefined;
  /** The app's work in flight: a running bulk job is part of it (docs/shutdown.md). */
  work?: WorkTracker;
  /** REDIS_URL: replicas share state and bulk jobs through it. */
  redisUrl?: string;
  /** How long a bulk job's lease lasts unless renewed: a job whose process died waits this long
   *  before another replica (or, on PostgreSQL, a restart) takes it over; default 30 s. */
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
  const bulkStore = createBulkJobStore(opts.records, {
    leaseMs: opts.bulkTakeoverMs ?? DEFAULT_TAKEOVER_MS,
    now: opts.now,
  });
  // Job files of an earlier version (DATA_DIR/bulk) move into the database once; one that cannot be
  // read stops the start with a sentence that names it.
  await importBulkFiles(opts.dataDir, bulkStore, logger, opts.now);
  // Redis is loaded only with REDIS_URL: a single process starts without it.
  const shared = opts.redisUrl
    ? (await import('./shared-store-redis.js')).createRedisStore(opts.redisUrl, logger)
    : createMemoryStore();
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
      store: bulkStore,
      takeoverMs: opts.bulkTakeoverMs ?? DEFAULT_TAKEOVER_MS,
      soleProcess: opts.records.dialect === 'sqlite',
      audit,
      logger,
      now: opts.now,
      work: opts.work,
    }),
    drafts: createDraftStore(() => opts.now().getTime()),
  };
}
