/**
 * Bulk jobs on disk: one JSON file per job under DATA_DIR/bulk/, rewritten atomically after every row,
 * so that after a crash or a restart each row is known to be pending, in flight ("sending": the write
 * may or may not have reached the service) or done with its outcome.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BulkJob, JobRow, RowOutcome } from '../domain/bulk-job.js';
import { listJsonFiles, readJson, writeFileAtomic } from './state-store.js';

export type { BulkJob, JobRow, RowOutcome };

export interface BulkJobStore {
  save(job: BulkJob): Promise<void>;
  load(id: string): Promise<BulkJob | undefined>;
  /** Jobs whose state is still 'running'. */
  unfinished(): Promise<BulkJob[]>;
}

export function newJobId(now: Date): string {
  return `${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
}

const FILE_PREFIX = 'bulk-';
const isJob = (v: unknown): v is BulkJob => {
  const j = v as Partial<BulkJob> | null;
  return !!j && j.version === 1 && typeof j.id === 'string' && Array.isArray(j.rows) && typeof j.poolId === 'string';
};

export function createBulkJobStore(dir: string): BulkJobStore {
  const pathOf = (id: string) => join(dir, `${FILE_PREFIX}${id.replace(/[^a-z0-9-]/gi, '')}.json`);
  return {
    save: (job) => writeFileAtomic(pathOf(job.id), `${JSON.stringify(job)}\n`),
    async load(id) {
      const v = await readJson(pathOf(id));
      return isJob(v) ? v : undefined;
    },
    async unfinished() {
      const jobs: BulkJob[] = [];
      for (const file of await listJsonFiles(dir, FILE_PREFIX)) {
        const v = await readJson(join(dir, file)).catch(() => undefined);
        if (isJob(v) && v.state === 'running') jobs.push(v);
      }
      return jobs;
    },
  };
}
