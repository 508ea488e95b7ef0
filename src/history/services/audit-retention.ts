/**
 * AUDIT_RETENTION_DAYS: audit entries older than that many days are deleted, once at start and then
 * once a day (docs/records.md, "The audit trail"). Unset: every entry is kept. On PostgreSQL each
 * replica runs it; a delete finds what another already deleted gone, which is no harm.
 */
import { sql } from 'kysely';
import { deleteAuditBefore } from '../../kernel/db/audit.js';
import type { Records } from '../../kernel/db/open.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { Logger } from '../../kernel/licensing/types.js';
import { createJobRunner, type JobRunner } from '../../kernel/services/jobs/runner.js';

export interface AuditRetention {
  /** Deletes what is too old now; returns how many entries went (a failure is logged: 0). */
  run(): Promise<number>;
  stop(): void;
}

export function startAuditRetention(opts: {
  records: Pick<Records, 'db' | 'dialect'>;
  days: number;
  logger: Logger;
  now?: () => Date;
  /** Default one day. */
  everyMs?: number;
  /** The runner it is a job of; default one of its own. */
  jobs?: JobRunner;
}): AuditRetention {
  const now = opts.now ?? (() => new Date());
  const { records, logger, days } = opts;
  async function once(): Promise<number> {
    const before = new Date(now().getTime() - days * DAY_MS);
    try {
      const deleted = await deleteAuditBefore(records.db, before);
      if (deleted > 0) {
        // SQLite: give the freed pages back to the file system (a database made by this version
        // has auto_vacuum = INCREMENTAL; an older one ignores this).
        if (records.dialect === 'sqlite') await sql`PRAGMA incremental_vacuum`.execute(records.db);
        logger.info('audit: entries older than AUDIT_RETENTION_DAYS were deleted', {
          deleted,
          days,
          before: before.toISOString(),
        });
      }
      return deleted;
    } catch (error) {
      logger.warn('audit: could not delete the entries older than AUDIT_RETENTION_DAYS; tried again tomorrow', {
        error: error instanceof Error ? error.message : String(error),
      });
      return 0;
    }
  }
  const jobs = opts.jobs ?? createJobRunner({ logger });
  const job = jobs.add({ name: 'audit retention', everyMs: opts.everyMs ?? DAY_MS, run: once });
  return {
    run: async () => {
      const result = await job.run();
      return result.kind === 'ran' ? result.value : 0;
    },
    stop: () => void job.stop(0),
  };
}
