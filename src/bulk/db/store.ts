/**
 * Bulk jobs in the database (docs/records.md, "Bulk jobs"): the job without its rows in `bulk_jobs`,
 * each row in `bulk_rows`, the same tables for one process (SQLite) and for replicas (PostgreSQL).
 *
 * A row moves 'pending' -> 'sending' -> 'done'. Its move to 'sending' is committed before its write
 * is sent: that row is the write's intent (a bulk row has no separate entry in `intents`), so after a
 * crash, a restart or a takeover a row found 'sending' may or may not have reached the licensing
 * service, and is read back, never sent blind. Its outcome is committed after the answer, together
 * with the next row's move to 'sending' (one transaction per row).
 *
 * Who runs a job: the process holding its lease, the job's row in `job_leases` (`bulk:<id>`), the one
 * lease every job uses (kernel/db/job-leases.ts, docs/records.md "Job leases"). The runner that starts
 * a job holds it from its first write; it renews the lease while it runs; a runner elsewhere takes over
 * a running job whose lease ran out (its process died or hung). Every write of a job checks, in the
 * same transaction, that this process still holds that lease row, so a runner that lost its job gets
 * JobTakenOverError and stops before it sends anything more. Finished jobs are deleted after
 * KEEP_FINISHED_MS (sweep). The old lease columns of `bulk_jobs` are no longer read; every write of a
 * job clears them.
 *
 * Every query of the bulk feature is here. The lease is one piece (`jobLeases`): the store asks it who
 * may write a job, and nothing else knows the job's lease row.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { createDbLease } from '../../kernel/db/job-leases.js';
import type { Records } from '../../kernel/db/open.js';
import type { BulkJobsTable, Database } from '../../kernel/db/schema.js';
import { DAY_MS } from '../../kernel/domain/time.js';
import type { BulkJob, JobRow, RowOutcome } from '../domain/bulk-job.js';

export type { BulkJob, JobRow, RowOutcome };

/** Finished jobs are kept this long (their results are in the requester's DM and the audit trail). */
export const KEEP_FINISHED_MS = 7 * DAY_MS;
/** How long a job's lease lasts unless renewed (BULK_TAKEOVER_SECONDS). */
export const DEFAULT_TAKEOVER_MS = 30_000;

export interface BulkJobStore {
  /** Who this store writes as (a lease's owner): the process's instance id. */
  readonly owner: string;
  /**
   * Writes the whole job (start, progress message, pause, end). A new job is held by this store's
   * owner from this write on; a finished one by nobody. JobTakenOverError when another owner holds it.
   */
  save(job: BulkJob): Promise<void>;
  /**
   * Records the given rows' current state in one transaction (a row done, and the next one moved to
   * 'sending': committed before that row's write is sent), and renews the lease. JobTakenOverError
   * when another owner holds the job.
   */
  saveRows(job: BulkJob, rows: readonly JobRow[]): Promise<void>;
  load(id: string): Promise<BulkJob | undefined>;
  /** Jobs whose state is still 'running'. */
  unfinished(): Promise<BulkJob[]>;
  /** Deletes finished jobs that ended before `before` (with their rows); resolves with how many. */
  sweep(before: Date): Promise<number>;
  /** Running jobs that nobody holds now: no lease, or one that ran out. */
  free(): Promise<string[]>;
  /**
   * Takes a running job for this owner if nobody holds it (or its lease ran out); `force` takes it
   * whoever holds it (one process on SQLite: a lease found at start is a previous process's). True
   * when taken.
   */
  claim(id: string, force?: boolean): Promise<boolean>;
  /** Extends this owner's lease; false when another owner holds the job (or it is gone or finished). */
  renew(id: string): Promise<boolean>;
  /** Lets go of the job (a stop): another runner may take it at once. */
  release(id: string): Promise<void>;
  /** Adds a job nobody holds, unless one with its id exists (the import of job files); true when added. */
  adopt(job: BulkJob): Promise<boolean>;
}

/** Thrown by a write when another process has taken the job over: this one must let go. */
export class JobTakenOverError extends Error {
  override readonly name = 'JobTakenOverError';
}

export function newJobId(now: Date): string {
  return `${now.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
}

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

export interface BulkJobStoreOptions {
  /** Default: the process's instance id (records.instance). */
  owner?: string;
  /** How long a lease lasts unless renewed; default 30 s. */
  leaseMs?: number;
  now?: () => Date;
}

/** Rows per INSERT: well under SQLite's limit of bound values. */
const CHUNK = 200;

type Db = Kysely<Database>;
type Trx = Transaction<Database>;
/** What a job's head row says of its lease: nothing any more (the lease is a `job_leases` row). */
type LeaseColumns = Pick<BulkJobsTable, 'lease_owner' | 'lease_until'>;
const NO_LEASE_COLUMNS: LeaseColumns = { lease_owner: null, lease_until: null };

/** A bulk job's row in `job_leases`. */
export const bulkLeaseName = (id: string) => `bulk:${id}`;

/** The lease of a job: its `job_leases` row, taken, renewed and let go through the one lease (see the header). */
interface JobLeases {
  readonly owner: string;
  /**
   * In a transaction: whether the job's row exists, locked until the transaction ends (PostgreSQL;
   * SQLite has one writer). JobTakenOverError when it exists and this owner does not hold its lease.
   */
  check(trx: Trx, id: string): Promise<'absent' | 'held'>;
  /** In a transaction: whether a row with this id exists (locked like `check`), whoever holds it. */
  exists(trx: Trx, id: string): Promise<boolean>;
  /** In the transaction that writes the job: held while it runs, let go once done. */
  keep(trx: Trx, id: string, done: boolean): Promise<void>;
  free(): Promise<string[]>;
  claim(id: string, force?: boolean): Promise<boolean>;
  renew(id: string): Promise<boolean>;
  release(id: string): Promise<void>;
}

function jobLeases(records: Records, opts: BulkJobStoreOptions): JobLeases {
  const { db } = records;
  const owner = opts.owner ?? records.instance;
  const lease = createDbLease(records, { holder: owner, ...(opts.now ? { now: opts.now } : {}) });
  const leaseMs = opts.leaseMs ?? DEFAULT_TAKEOVER_MS;
  const taken = (id: string) => new JobTakenOverError(`bulk job ${id} is being run by another process`);
  const head = (trx: Trx, id: string) => {
    let q = trx.selectFrom('bulk_jobs').select('state').where('id', '=', id);
    if (records.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  };
  const running = async (id: string) =>
    (await db
      .selectFrom('bulk_jobs')
      .select('id')
      .where('id', '=', id)
      .where('state', '=', 'running')
      .executeTakeFirst()) !== undefined;
  return {
    owner,
    async check(trx, id) {
      if (!(await head(trx, id))) return 'absent';
      if (!(await lease.holds(trx, bulkLeaseName(id)))) throw taken(id);
      return 'held';
    },
    exists: async (trx, id) => (await head(trx, id)) !== undefined,
    async keep(trx, id, done) {
      const name = bulkLeaseName(id);
      if (done) await lease.release(name, trx);
      else if (!(await lease.take(name, leaseMs, { in: trx }))) throw taken(id);
    },
    async free() {
      const rows = await db
        .selectFrom('bulk_jobs')
        .select('id')
        .where('state', '=', 'running')
        .orderBy('created_at')
        .execute();
      const free: string[] = [];
      for (const { id } of rows) if (!(await lease.holder(bulkLeaseName(id)))) free.push(id);
      return free;
    },
    async claim(id, force = false) {
      // One conditional write (lease.ts): of two runners claiming at once, the second finds it taken.
      if (!(await running(id))) return false;
      return lease.take(bulkLeaseName(id), leaseMs, { force });
    },
    async renew(id) {
      return (await running(id)) && lease.renew(bulkLeaseName(id), leaseMs);
    },
    release: (id) => lease.release(bulkLeaseName(id)),
  };
}

const jobBody = (job: BulkJob) => {
  const { rows: _rows, ...rest } = job;
  return JSON.stringify(rest);
};

/** Inserts a job's head row (its rows go with writeRows). */
async function insertJob(trx: Trx, job: BulkJob): Promise<void> {
  await trx
    .insertInto('bulk_jobs')
    .values({
      id: job.id,
      state: job.state,
      requester: job.requester,
      pool_id: job.poolId,
      created_at: job.createdAt,
      finished_at: job.finishedAt ?? null,
      ...NO_LEASE_COLUMNS,
      body: jobBody(job),
    })
    .execute();
}

async function updateJob(trx: Trx, job: BulkJob): Promise<void> {
  await trx
    .updateTable('bulk_jobs')
    .set({ state: job.state, finished_at: job.finishedAt ?? null, body: jobBody(job), ...NO_LEASE_COLUMNS })
    .where('id', '=', job.id)
    .execute();
}

/** Inserts or replaces rows by line, CHUNK at a time. */
async function writeRows(trx: Trx, jobId: string, rows: readonly JobRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows
      .slice(i, i + CHUNK)
      .map((r) => ({ job_id: jobId, line: r.line, state: r.state, body: JSON.stringify(r) }));
    await trx
      .insertInto('bulk_rows')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['job_id', 'line']).doUpdateSet((eb) => ({
          state: eb.ref('excluded.state'),
          body: eb.ref('excluded.body'),
        })),
      )
      .execute();
  }
}

async function loadJob(db: Db, id: string): Promise<BulkJob | undefined> {
  const head = await db.selectFrom('bulk_jobs').select('body').where('id', '=', id).executeTakeFirst();
  if (!head) return undefined;
  const rows = await db.selectFrom('bulk_rows').select('body').where('job_id', '=', id).orderBy('line').execute();
  const job = { ...(JSON.parse(head.body) as object), rows: rows.map((r) => JSON.parse(r.body) as JobRow) };
  return isJob(job) ? job : undefined;
}

async function unfinishedJobs(db: Db): Promise<BulkJob[]> {
  const ids = await db
    .selectFrom('bulk_jobs')
    .select('id')
    .where('state', '=', 'running')
    .orderBy('created_at')
    .execute();
  const jobs: BulkJob[] = [];
  for (const { id } of ids) {
    const job = await loadJob(db, id);
    if (job?.state === 'running') jobs.push(job);
  }
  return jobs;
}

/** Deletes finished jobs that ended before `before`, rows first; resolves with how many jobs. */
function sweepFinished(db: Db, before: Date): Promise<number> {
  // Rows first: SQLite's cascade needs foreign_keys on, which only this process's handle promises.
  return db.transaction().execute(async (trx) => {
    const old = trx
      .selectFrom('bulk_jobs')
      .select('id')
      .where('state', '=', 'done')
      .where('finished_at', 'is not', null)
      .where('finished_at', '<', before.toISOString());
    await trx.deleteFrom('bulk_rows').where('job_id', 'in', old).execute();
    const result = await trx
      .deleteFrom('bulk_jobs')
      .where('state', '=', 'done')
      .where('finished_at', 'is not', null)
      .where('finished_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

export function createBulkJobStore(records: Records, opts: BulkJobStoreOptions = {}): BulkJobStore {
  const { db } = records;
  const lease = jobLeases(records, opts);
  return {
    owner: lease.owner,
    async save(job) {
      const done = job.state !== 'running';
      await db.transaction().execute(async (trx) => {
        if ((await lease.check(trx, job.id)) === 'absent') await insertJob(trx, job);
        else await updateJob(trx, job);
        await lease.keep(trx, job.id, done);
        await writeRows(trx, job.id, job.rows);
      });
    },
    async saveRows(job, rows) {
      if (rows.length === 0) return;
      // On disk before it returns: a row's move to 'sending' is its write's intent (Records.durably).
      await records.durably(() =>
        db.transaction().execute(async (trx) => {
          if ((await lease.check(trx, job.id)) === 'absent') {
            throw new JobTakenOverError(`bulk job ${job.id} is being run by another process`);
          }
          await lease.keep(trx, job.id, false);
          await writeRows(trx, job.id, rows);
        }),
      );
    },
    load: (id) => loadJob(db, id),
    unfinished: () => unfinishedJobs(db),
    sweep: (before) => sweepFinished(db, before),
    free: () => lease.free(),
    claim: (id, force) => lease.claim(id, force),
    renew: (id) => lease.renew(id),
    release: (id) => lease.release(id),
    async adopt(job) {
      return db.transaction().execute(async (trx) => {
        if (await lease.exists(trx, job.id)) return false;
        await insertJob(trx, job);
        await writeRows(trx, job.id, job.rows);
        return true;
      });
    },
  };
}
