/**
 * The services behind App Home, alerts and bulk assignment, built once by the composition
 * root (src/main.ts, and the end-to-end harness) over one DATA_DIR: DATA_DIR/alerts.json (what was
 * announced, survives restarts) and DATA_DIR/bulk/ (one file per bulk job).
 */
import { join } from 'node:path';
import type { LicensingClient, Logger } from '../licensing/types.js';
import { type AlertService, alertStateFile, createAlertService } from './alerts.js';
import type { AuditLog } from './audit.js';
import { createDraftStore, type DraftStore } from './bulk.js';
import { createBulkJobStore } from './bulk-jobs.js';
import { type BulkRunner, createBulkRunner } from './bulk-runner.js';
import { createDashboard, type Dashboard } from './dashboard.js';
import { ensureDir } from './state-store.js';
import type { WorkTracker } from './work-tracker.js';

export interface Desk {
  dataDir: string;
  dashboard: Dashboard;
  alerts: AlertService;
  runner: BulkRunner;
  drafts: DraftStore;
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
  return {
    dataDir: opts.dataDir,
    dashboard: createDashboard({
      licensing: opts.licensing,
      audit,
      now: opts.now,
      logger,
      limit: opts.rateLimit.limit,
      windowMs: opts.rateLimit.windowMs,
      share: opts.homeBudgetShare,
    }),
    alerts: createAlertService({
      licensing: opts.licensing,
      file: alertStateFile(join(opts.dataDir, 'alerts.json'), logger),
      now: opts.now,
      logger,
    }),
    runner: createBulkRunner({
      licensing: opts.licensing,
      store: createBulkJobStore(join(opts.dataDir, 'bulk')),
      audit,
      logger,
      now: opts.now,
      work: opts.work,
    }),
    drafts: createDraftStore(() => opts.now().getTime()),
  };
}
