/**
 * The services behind App Home, alerts and bulk assignment, built once by the composition
 * root (src/main.ts, and the end-to-end harness): the alert memory (the database's `state` table; the
 * in-process sandbox's, fresh at each start, under a key of its own) and the bulk jobs (`records`,
 * bulk/db/store.ts) live in the database, for one process and for replicas alike. With REDIS_URL the
 * replicas share through Redis what must be shared within a second (docs/deployment.md): the App
 * Home snapshot and the repeat guard (`shared`, handed
 * to the Slack side by the composition root).
 */
import { mkdir } from 'node:fs/promises';
import {
  ALERT_MEMORY_KEY,
  type AlertService,
  alertMemory,
  createAlertService,
  SANDBOX_ALERT_MEMORY_KEY,
} from '../../alerts/index.js';
import {
  type BulkRunner,
  createBulkJobStore,
  createBulkRunner,
  createDraftStore,
  DEFAULT_TAKEOVER_MS,
  type DraftStore,
} from '../../bulk/index.js';
import { createDashboard, type Dashboard } from '../../digest/index.js';
import type { Records } from '../../kernel/db/open.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { createDbLease, type JobLease } from '../../kernel/services/jobs/lease.js';
import type { JobRunner } from '../../kernel/services/jobs/runner.js';
import type { RedisConnections } from '../../kernel/services/redis.js';
import { createMemoryStore, type SharedStore } from '../../kernel/services/shared-store.js';
import { dropStateDocument } from '../../kernel/services/state-records.js';
import type { WorkTracker } from '../../kernel/services/work-tracker.js';

export interface Desk {
  dataDir: string;
  dashboard: Dashboard;
  alerts: AlertService;
  runner: BulkRunner;
  drafts: DraftStore;
  /** The state the replicas share (Redis), or this process's own (memory) without REDIS_URL. */
  shared: SharedStore;
  /** The daily alert check runs in one replica a day: its lease is in the database (jobs/lease.ts). */
  alertLease: JobLease;
  /** Closes the Redis connections (after the runner and scheduler stopped). */
  close(): Promise<void>;
}

export interface DeskOptions {
  licensing: LicensingClient;
  logger: Logger;
  now: () => Date;
  dataDir: string;
  /** The database the alert memory (`state`) and the bulk jobs live in (SQLite: one process; PostgreSQL: shared by the replicas). */
  records: Records;
  /** The licensing budget the dashboard takes its share of. */
  rateLimit: { limit: number; windowMs: number };
  homeBudgetShare: number;
  /** Read at each use: the app may build the audit log after the desk. */
  audit?: () => AuditLog | undefined;
  /** The app's work in flight: a running bulk job is part of it (docs/shutdown.md). */
  work?: WorkTracker;
  /** REDIS_URL: the app's Redis connections (redis.ts), which the shared store takes its own from. */
  redis?: RedisConnections;
  /** How long a bulk job's lease lasts unless renewed: a job whose process died waits this long
   *  before another replica (or, on PostgreSQL, a restart) takes it over; default 30 s. */
  bulkTakeoverMs?: number;
  /**
   * The licensing data is the in-process sandbox's, seeded afresh at each start: its alert memory is a
   * document of its own, emptied here on SQLite (one process), so a demo on fresh data starts with fresh
   * memory and a real deployment's memory (or an alerts.json still to import) is never touched.
   */
  sandboxRun?: boolean;
  /** The one job runner: the bulk jobs' background work is added to it. */
  jobs?: JobRunner;
}

export async function createDesk(opts: DeskOptions): Promise<Desk> {
  await mkdir(opts.dataDir, { recursive: true });
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
  // Redis is loaded only with REDIS_URL: a single process starts without it.
  const shared = opts.redis
    ? (await import('../../kernel/services/shared-store-redis.js')).createRedisStore(opts.redis, logger)
    : createMemoryStore();
  // The alert memory, in the records (an alerts.json of an earlier version: npm run import-old-records).
  const memory = alertMemory(opts.records, opts.sandboxRun ? SANDBOX_ALERT_MEMORY_KEY : ALERT_MEMORY_KEY);
  if (opts.sandboxRun && opts.records.dialect === 'sqlite')
    await dropStateDocument(opts.records, SANDBOX_ALERT_MEMORY_KEY);
  return {
    dataDir: opts.dataDir,
    shared,
    alertLease: createDbLease(opts.records, { now: opts.now }),
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
      file: memory,
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
      jobs: opts.jobs,
    }),
    drafts: createDraftStore(() => opts.now().getTime()),
  };
}
