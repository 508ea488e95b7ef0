/**
 * The files an earlier version kept in DATA_DIR (docs/records.md, "Files of an earlier version"): the
 * audit trail (audit.jsonl and its rotations), the course requests and the waitlist (requests.json,
 * waitlist.json), the bulk jobs (bulk/) and the alert memory (alerts.json). `npm run
 * import-old-records` (src/import-old-records.ts) moves them into the records once and renames each
 * aside; a start only looks whether any is left and says so in one log line.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ALERT_MEMORY_KEY, alertMemory, importAlertFile } from '../alerts/index.js';
import { createBulkJobStore, DEFAULT_TAKEOVER_MS, importBulkFiles } from '../bulk/index.js';
import { auditFilesIn, importAuditFiles } from '../history/index.js';
import type { Records } from '../kernel/db/open.js';
import type { Logger } from '../kernel/licensing/types.js';
import { createIntents } from '../kernel/services/writes/intents.js';
import { importRequestFiles } from '../requests/index.js';

export const IMPORT_COMMAND = 'npm run import-old-records';

const REQUEST_FILES = ['requests.json', 'waitlist.json'];
const BULK_DIR = 'bulk';
const ALERT_FILE = 'alerts.json';

/** The old files still in `dataDir`, by name (none once imported: each is renamed aside). */
export async function oldFilesIn(dataDir: string): Promise<string[]> {
  const audit = (await auditFilesIn(dataDir)).map((f) => f.slice(dataDir.length + 1));
  const bulk = join(dataDir, BULK_DIR);
  const bulkFiles = existsSync(bulk) ? readdirSync(bulk).filter((f) => /^bulk-.+\.json$/.test(f)) : [];
  return [
    ...audit,
    ...REQUEST_FILES.filter((f) => existsSync(join(dataDir, f))),
    ...bulkFiles.map((f) => join(BULK_DIR, f)),
    ...(existsSync(join(dataDir, ALERT_FILE)) ? [ALERT_FILE] : []),
  ];
}

/** A start that finds old files not imported says so once, with the command, and goes on without them. */
export async function hintOldFiles(dataDir: string, logger: Logger): Promise<void> {
  const files = await oldFilesIn(dataDir).catch(() => []);
  if (files.length === 0) return;
  logger.warn(
    `records check: files of an earlier version are in DATA_DIR and not imported; License Desk starts without them: stop it and run ${IMPORT_COMMAND}`,
    { files },
  );
}

export interface OldRecordsImported {
  auditEntries: number;
  requests: number;
  waitlisted: number;
  bulkJobs: number;
  alertMemory: boolean;
}

/**
 * Imports every old file of `dataDir` into the records, in one pass: the audit trail, the requests
 * and waitlist, the bulk jobs, the alert memory. A file that cannot be read throws one sentence that
 * names it; what came before it stays imported (each file is renamed aside once in the records), so
 * running the command again after the fix goes on from there.
 */
export async function importOldRecords(opts: {
  records: Records;
  dataDir: string;
  logger: Logger;
  now?: () => Date;
}): Promise<OldRecordsImported> {
  const { records, dataDir, logger } = opts;
  const now = opts.now ?? (() => new Date());
  const audit = await importAuditFiles({ records, dataDir, logger, now });
  const requests = await importRequestFiles({ records, intents: createIntents(records, now), dataDir, logger, now });
  const bulkStore = createBulkJobStore(records, { leaseMs: DEFAULT_TAKEOVER_MS, now });
  const bulk = await importBulkFiles(dataDir, bulkStore, logger, now);
  const alerts = await importAlertFile(alertMemory(records, ALERT_MEMORY_KEY), join(dataDir, ALERT_FILE), logger, now);
  return {
    auditEntries: audit.reduce((n, f) => n + f.entries, 0),
    requests: requests?.requests ?? 0,
    waitlisted: requests?.waitlisted ?? 0,
    bulkJobs: bulk.jobs,
    alertMemory: alerts,
  };
}
