/**
 * Bulk jobs on disk (no REDIS_URL): under DATA_DIR/bulk/, one JSON file per job, written whole when
 * the job starts, pauses or ends, and between those a journal beside it (`bulk-<id>.rows`) to which
 * each row change is appended and flushed: one short line per row instead of the whole job rewritten
 * twice, so that after a crash or a restart each row is still known to be pending, in flight
 * ("sending": the write may or may not have reached the service) or done with its outcome. Reading a
 * job applies its journal; writing it whole folds the journal in and deletes it. Finished jobs are
 * deleted after `KEEP_FINISHED_MS` (sweep). With REDIS_URL the same interface is kept in Redis
 * (bulk-jobs-redis.ts).
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { BulkJob, JobRow, RowOutcome } from '../domain/bulk-job.js';
import { DAY_MS } from '../domain/time.js';
import { ensureDir, listJsonFiles, readJson, writeFileAtomic } from './state-store.js';

export type { BulkJob, JobRow, RowOutcome };

/** Finished jobs are kept this long (their results are in the requester's DM and the audit trail). */
export const KEEP_FINISHED_MS = 7 * DAY_MS;

export interface BulkJobStore {
  /** Writes the whole job (start, progress message, pause, end). */
  save(job: BulkJob): Promise<void>;
  /** Records the given rows' current state in one write (a row done, and the next one in flight). */
  saveRows(job: BulkJob, rows: readonly JobRow[]): Promise<void>;
  load(id: string): Promise<BulkJob | undefined>;
  /** Jobs whose state is still 'running'. */
  unfinished(): Promise<BulkJob[]>;
  /** Deletes finished jobs that ended before `before`; resolves with how many. */
  sweep(before: Date): Promise<number>;
}

/** Thrown by a shared store when another replica has taken the job over: this one must let go. */
export class JobTakenOverError extends Error {
  override readonly name = 'JobTakenOverError';
}

export function newJobId(now: Date): string {
  return `${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
}

const FILE_PREFIX = 'bulk-';
export const isJob = (v: unknown): v is BulkJob => {
  const j = v as Partial<BulkJob> | null;
  return !!j && j.version === 1 && typeof j.id === 'string' && Array.isArray(j.rows) && typeof j.poolId === 'string';
};

/** Applies recorded rows (by line) to a job. */
export function applyRows(job: BulkJob, rows: readonly JobRow[]): void {
  const at = new Map(job.rows.map((r, i) => [r.line, i]));
  for (const row of rows) {
    const i = at.get(row.line);
    if (i !== undefined) job.rows[i] = row;
  }
}

export function createBulkJobStore(dir: string): BulkJobStore {
  const safe = (id: string) => id.replace(/[^a-z0-9-]/gi, '');
  const pathOf = (id: string) => join(dir, `${FILE_PREFIX}${safe(id)}.json`);
  const journalOf = (id: string) => join(dir, `${FILE_PREFIX}${safe(id)}.rows`);
  const forget = (path: string) =>
    unlink(path).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    });

  async function readJournal(id: string): Promise<JobRow[]> {
    let text: string;
    try {
      text = await readFile(journalOf(id), 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return [];
      throw error;
    }
    const rows: JobRow[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        rows.push(...(JSON.parse(line) as { rows: JobRow[] }).rows);
      } catch {
        // A line cut short by a crash: the rows it held were not flushed, so their last state stands.
      }
    }
    return rows;
  }

  async function load(id: string): Promise<BulkJob | undefined> {
    const v = await readJson(pathOf(id));
    if (!isJob(v)) return undefined;
    applyRows(v, await readJournal(v.id));
    return v;
  }

  return {
    async save(job) {
      await writeFileAtomic(pathOf(job.id), `${JSON.stringify(job)}\n`);
      // Everything the journal said is in the file now.
      await forget(journalOf(job.id));
    },
    async saveRows(job, rows) {
      if (rows.length === 0) return;
      await ensureDir(dir);
      const handle = await open(journalOf(job.id), 'a');
      try {
        await handle.write(`${JSON.stringify({ rows })}\n`);
        await handle.datasync();
      } finally {
        await handle.close();
      }
    },
    load,
    async unfinished() {
      const jobs: BulkJob[] = [];
      for (const file of await listJsonFiles(dir, FILE_PREFIX)) {
        const v = await load(file.slice(FILE_PREFIX.length, -'.json'.length)).catch(() => undefined);
        if (v?.state === 'running') jobs.push(v);
      }
      return jobs;
    },
    async sweep(before) {
      let removed = 0;
      for (const file of await listJsonFiles(dir, FILE_PREFIX)) {
        const v = await readJson(join(dir, file)).catch(() => undefined);
        if (!isJob(v) || v.state !== 'done' || !v.finishedAt) continue;
        if (Date.parse(v.finishedAt) >= before.getTime()) continue;
        await forget(journalOf(v.id));
        await forget(join(dir, file));
        removed++;
      }
      return removed;
    },
  };
}
