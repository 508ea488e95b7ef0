/**
 * Runs bulk jobs: one row at a time at BACKGROUND priority, so the limiter's
 * reserved slots keep other people's commands responsive; each row is recorded as in flight before
 * its write, and as done after it (one store write per row: a row's "done" goes with the next row's
 * "sending"). A row whose write went out without a clear answer (a timeout, a 5xx, or a restart or
 * takeover while it was in flight) is resolved by reading back (the student's licenses), never by
 * sending it blindly again (design.md section 3): a repeated assign with recycle would end a second
 * license.
 *
 * One runner for one process and for replicas: jobs live in the database (bulk-jobs.ts), and the
 * runner that holds a job's lease runs it. The process that starts a job runs it, renewing the lease
 * while it does; every runner looks for running jobs nobody holds (a lease that ran out: the process
 * died or hung; or one let go by a stop) and takes them on. On SQLite only one process uses the
 * database, so at start it takes every unfinished job at once, whatever lease a previous process left.
 */
import { count } from '../../kernel/domain/count.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { createJobRunner, type Job, type JobRunner, within } from '../../kernel/services/jobs/runner.js';
import { tracked, type WorkTracker } from '../../kernel/services/work-tracker.js';
import { readBackAssign } from '../../kernel/services/writes/read-back.js';
import {
  type BulkJob,
  type BulkJobStore,
  DEFAULT_TAKEOVER_MS,
  type JobRow,
  JobTakenOverError,
  KEEP_FINISHED_MS,
} from '../db/store.js';
import { assignBulkLine } from './bulk-line.js';
import { rowFailure } from './bulk-outcome.js';

const BACKGROUND = { priority: 'background' } as const;
/** Slack's chat.update is Tier 3, and a person does not read faster: at most one update per 3 s. */
export const PROGRESS_EVERY_MS = 3000;

/** What the runner tells the requester; the Slack side implements it. Failures are logged, not fatal. */
export interface BulkProgressNotices {
  /** Posts the progress message; returns where it is, so later updates (and a resumed job) edit it. */
  started(job: BulkJob): Promise<{ channel: string; ts: string } | undefined>;
  progress(job: BulkJob): Promise<void>;
  finished(job: BulkJob): Promise<void>;
}

export interface BulkRunner {
  /** Records the job (held by this runner), then runs it in the background; resolves once it is recorded. */
  start(job: BulkJob, notifier: BulkProgressNotices): Promise<void>;
  /**
   * Takes on the unfinished jobs nobody holds (on SQLite: every unfinished job) and from then on looks
   * for such jobs every `pollMs`; resolves with how many it took at once.
   */
  resumeAll(notifierFor: (job: BulkJob) => BulkProgressNotices): Promise<number>;
  /** Resolves when the job's run in this process ends (for tests and the benchmark). */
  settled(jobId: string): Promise<void>;
  /** Stops starting rows; waits up to `timeoutMs` for the rows in flight. */
  stop(timeoutMs?: number): Promise<void>;
}

export interface BulkRunnerOptions {
  licensing: LicensingClient;
  store: BulkJobStore;
  audit?: Pick<AuditLog, 'record'> | undefined;
  logger: Logger;
  now: () => Date;
  /** A running job counts as work in flight, so a stop waits for its current line (docs/shutdown.md). */
  work?: WorkTracker | undefined;
  /** How long a lease lasts (BULK_TAKEOVER_SECONDS); it is renewed at a third of that. Default 30 s. */
  takeoverMs?: number;
  /** How often to look for jobs nobody holds; default half of takeoverMs, at most 5 s. */
  pollMs?: number;
  /**
   * One process uses the database (SQLite): at start every unfinished job is taken, whatever lease
   * a previous process left (it is gone: nobody else can be running it).
   */
  soleProcess?: boolean;
  /** The runner its jobs (looking for jobs nobody holds, renewing a running job's lease) are added to; default one of its own. */
  jobs?: JobRunner | undefined;
}

/** The store could not record a row as in flight, so it was not sent (the database unreachable). */
class NotRecordedError extends Error {
  override readonly name = 'NotRecordedError';
}

type RowResult = 'done' | 'stop' | 'abort' | 'wait';

/** What the steps of a run share: the options, and whether the process is stopping. */
interface RunContext {
  opts: BulkRunnerOptions;
  stopping(): boolean;
}

const AUDIT_OUTCOME = { assigned: 'done', unknown: 'unknown', failed: 'failed' } as const;

async function auditRow(opts: BulkRunnerOptions, job: BulkJob, row: JobRow): Promise<void> {
  const outcome = AUDIT_OUTCOME[row.outcome as keyof typeof AUDIT_OUTCOME] ?? 'refused';
  await opts.audit?.record({
    at: opts.now().toISOString(),
    actor: job.requester,
    action: 'bulk-assign',
    outcome,
    poolId: job.poolId,
    courseTitle: job.courseTitle,
    studentEmail: row.email,
    ...(row.name ? { studentName: row.name } : {}),
    ...(row.licenseId ? { licenseId: row.licenseId } : {}),
    jobId: job.id,
    ...(row.detail ? { detail: `line ${row.line}: ${row.detail}` } : {}),
    quiet: true,
  });
}

/** The one audit-channel message of a job: counts per outcome (each row is in the log and file). */
async function auditSummary(opts: BulkRunnerOptions, job: BulkJob): Promise<void> {
  const counts = new Map<string, number>();
  for (const row of job.rows) counts.set(row.outcome ?? 'not sent', (counts.get(row.outcome ?? 'not sent') ?? 0) + 1);
  const parts = [...counts].map(([outcome, n]) => `${n} ${outcome}`).join(', ');
  const assigned = counts.get('assigned') ?? 0;
  await opts.audit?.record({
    at: opts.now().toISOString(),
    actor: job.requester,
    action: 'bulk-assign',
    outcome: counts.has('unknown') ? 'unknown' : assigned > 0 ? 'done' : 'failed',
    poolId: job.poolId,
    courseTitle: job.courseTitle,
    jobId: job.id,
    detail: `finished, ${count(job.rows.length, 'line')}: ${parts}. Every line is in the audit log; the requester has the per-line results.`,
  });
}

/** What an assign's result makes of the row (the write was sent, or refused before). */
function settleRow(row: JobRow, result: Awaited<ReturnType<typeof assignBulkLine>>): RowResult {
  switch (result.kind) {
    case 'done':
      Object.assign(row, { state: 'done', outcome: 'assigned', licenseId: result.value.id });
      if (result.checked) row.recovered = true;
      return 'done';
    case 'not-done':
      Object.assign(row, rowFailure(result.error), { state: 'done', outcome: 'failed' });
      row.detail = 'The licensing service did not answer; reading back shows it was not assigned.';
      return 'done';
    case 'unknown':
      Object.assign(row, { state: 'done', outcome: 'unknown' });
      row.detail = 'The licensing service did not answer, and reading back failed too: check this student.';
      return 'done';
    default: {
      const kind = isLicensingError(result.error) ? result.error.kind : undefined;
      // The shared rate budget (Redis) is away: nothing was sent; the row waits, it has not failed.
      if (kind === 'budget-unavailable') {
        row.state = 'pending';
        return 'wait';
      }
      Object.assign(row, rowFailure(result.error), { state: 'done' });
      // A token that is refused will be refused for every later row too.
      return kind === 'unauthorized' || kind === 'forbidden' ? 'abort' : 'done';
    }
  }
}

/** One row to 'done', or left 'sending' when the process is stopping mid-write. `markSending`
 *  records the row in flight (with the rows done since the last write) before anything is sent. */
async function runRow(
  ctx: RunContext,
  job: BulkJob,
  row: JobRow,
  markSending: (row: JobRow) => Promise<void>,
): Promise<RowResult> {
  const { licensing } = ctx.opts;
  if (row.state === 'sending') {
    // The last process stopped after sending this row and before recording its outcome.
    const found = await readBackAssign(licensing, job.poolId, row.email, BACKGROUND.priority);
    if (found) {
      Object.assign(row, { state: 'done', outcome: 'assigned', licenseId: found.id, recovered: true });
      return 'done';
    }
  }
  row.state = 'sending';
  await markSending(row);
  const line = { poolId: job.poolId, email: row.email, name: row.name, endDate: job.endDate, recycle: row.recycle };
  const result = await assignBulkLine(licensing, line, BACKGROUND.priority);
  // Stopping: a request dropped from the limiter's queue was never sent; one in flight may have been.
  // Either way the row stays 'sending' and the next start reads back before writing.
  if (ctx.stopping() && !(result.kind === 'done' && !result.checked)) return 'stop';
  return settleRow(row, result);
}

/** Records rows in flight: the rows done since the last write go with the next row's "sending" mark. */
function rowMarker(store: BulkJobStore, job: BulkJob) {
  const unsaved: JobRow[] = [];
  return {
    unsaved,
    async markSending(row: JobRow): Promise<void> {
      const rows = [...unsaved.splice(0), row];
      try {
        await store.saveRows(job, rows);
      } catch (error) {
        if (error instanceof JobTakenOverError) throw error;
        // Nothing was sent: the row goes back to what it was and the job pauses (store unreachable).
        unsaved.push(...rows.slice(0, -1));
        throw new NotRecordedError(String(error));
      }
    },
  };
}

/**
 * A row that threw: 'lost' (taken over), 'paused' (not recorded, nothing sent), 'stop', or what the
 * row counts as (a read-back that failed leaves its outcome unknown rather than risk a second write).
 */
async function rowError(
  ctx: RunContext,
  job: BulkJob,
  row: JobRow,
  error: unknown,
): Promise<RowResult | 'lost' | 'paused'> {
  const { logger, store } = ctx.opts;
  if (error instanceof JobTakenOverError) return 'lost';
  // The read-back of a row in flight could not be sent (the shared rate budget is away): it stays in flight.
  if (isLicensingError(error) && error.kind === 'budget-unavailable') return 'wait';
  if (error instanceof NotRecordedError) {
    row.state = 'pending';
    logger.warn('bulk job paused: the row could not be recorded before sending it; nothing was sent', {
      job: job.id,
      line: row.line,
      error: error.message,
    });
    await store.save(job).catch(() => undefined);
    return 'paused';
  }
  if (ctx.stopping()) return 'stop';
  Object.assign(row, { state: 'done', outcome: 'unknown' });
  row.detail = 'The outcome could not be checked; look this student up before trying again.';
  logger.warn('bulk job: read-back failed', { job: job.id, line: row.line, error: String(error) });
  return 'done';
}

function skipped(row: JobRow): void {
  Object.assign(row, { state: 'done', outcome: 'skipped', detail: 'Not sent: the licensing service refused the job.' });
}

/** Running one job: its rows in order, then the end (results, audit summary) or a pause. */
function jobRunner(ctx: RunContext) {
  const { opts } = ctx;
  const { store, logger } = opts;
  const safely = async (job: BulkJob, what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      logger.warn(`bulk job: could not ${what}`, { job: job.id, error: String(error) });
    }
  };
  const lost = (job: BulkJob) => {
    logger.warn('bulk job taken over by another process; this one stops running it', { job: job.id });
    return 'lost' as const;
  };

  /** The rows one after another; 'lost', 'paused' or 'stop' end the walk early. */
  async function walk(job: BulkJob, notifier: BulkProgressNotices, lease: { lost: boolean }) {
    const marker = rowMarker(store, job);
    let lastProgress = opts.now().getTime();
    let aborted = false;
    for (const row of job.rows) {
      if (row.state === 'done') continue;
      if (ctx.stopping()) break;
      if (lease.lost) return lost(job);
      if (aborted) {
        skipped(row);
        continue;
      }
      const result = await runRow(ctx, job, row, marker.markSending).catch((error: unknown) =>
        rowError(ctx, job, row, error),
      );
      if (result === 'lost') return lost(job);
      if (result === 'paused') return result;
      if (result === 'wait') {
        // The lease is kept and runs out: the job is taken up again (here or by another replica) after
        // BULK_TAKEOVER_SECONDS, and waits again while Redis is away.
        logger.warn('bulk job paused: the shared rate budget (Redis) cannot be reached; nothing was sent', {
          job: job.id,
          line: row.line,
        });
        await store.save(job).catch(() => undefined);
        return 'paused' as const;
      }
      if (result === 'stop') break;
      if (result === 'abort') aborted = true;
      marker.unsaved.push(row);
      await safely(job, 'write the audit entry', () => auditRow(opts, job, row));
      const t = opts.now().getTime();
      if (t - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = t;
        await safely(job, 'update the progress message', () => notifier.progress(job));
      }
    }
    return 'walked' as const;
  }

  /** 'paused': stopped for a shutdown, rows left; 'lost': another replica took the job over. */
  async function run(
    job: BulkJob,
    notifier: BulkProgressNotices,
    lease: { lost: boolean },
  ): Promise<'done' | 'paused' | 'lost'> {
    if (!job.progress) {
      await safely(job, 'post the progress message', async () => {
        const where = await notifier.started(job);
        if (where) job.progress = where;
        await store.save(job);
      });
    }
    const walked = await walk(job, notifier, lease);
    if (walked !== 'walked') return walked;
    if (ctx.stopping() && job.rows.some((r) => r.state !== 'done')) {
      await store.save(job);
      logger.info(
        opts.soleProcess
          ? 'bulk job paused for shutdown; it resumes at the next start'
          : 'bulk job paused for shutdown; another replica or the next start carries on',
        { job: job.id },
      );
      return 'paused';
    }
    job.state = 'done';
    job.finishedAt = opts.now().toISOString();
    await store.save(job);
    await safely(job, 'post the results', () => notifier.finished(job));
    await safely(job, 'write the audit summary', () => auditSummary(opts, job));
    logger.info('bulk job finished', { job: job.id, rows: job.rows.length });
    await safely(job, 'delete old finished jobs', () => sweep());
    return 'done';
  }

  const sweep = async () => {
    const removed = await store.sweep(new Date(opts.now().getTime() - KEEP_FINISHED_MS));
    if (removed > 0) logger.info('old finished bulk jobs deleted', { removed });
  };

  return { run, sweep, lost };
}

/** While the job runs here its lease is renewed (a job of the runner), and marked lost when renewal fails. */
function holdLease(
  opts: BulkRunnerOptions,
  jobs: JobRunner,
  job: BulkJob,
  takeoverMs: number,
): { lease: { lost: boolean }; end(): Promise<void> } {
  const lease = { lost: false };
  const renewal = jobs.add({
    name: `bulk job ${job.id}: lease`,
    everyMs: Math.max(200, Math.floor(takeoverMs / 3)),
    run: async () => {
      // The database away: the row writes fail too and pause the job; the lease runs out meanwhile.
      const held = await opts.store.renew(job.id).catch((error: unknown) => {
        opts.logger.warn('bulk job: could not renew its lease', { job: job.id, error: String(error) });
        return true;
      });
      if (!held) lease.lost = true;
    },
  });
  return { lease, end: () => renewal.stop(0) };
}

export function createBulkRunner(opts: BulkRunnerOptions): BulkRunner {
  const { store, logger } = opts;
  const runs = new Map<string, Promise<void>>();
  let stopping = false;
  const ctx: RunContext = { opts, stopping: () => stopping };
  const takeoverMs = opts.takeoverMs ?? DEFAULT_TAKEOVER_MS;
  const pollMs = opts.pollMs ?? Math.min(5000, Math.max(500, Math.floor(takeoverMs / 2)));
  const jobs = opts.jobs ?? createJobRunner({ logger });
  let poller: Job | undefined;
  let notifierOf: ((job: BulkJob) => BulkProgressNotices) | undefined;
  const { run, sweep, lost } = jobRunner(ctx);

  /** Runs a job this runner holds, renewing its lease meanwhile; a stop lets go of it. */
  function launch(job: BulkJob, notifier: BulkProgressNotices): Promise<'done' | 'paused' | 'lost' | 'failed'> {
    logger.info('running a bulk job', { job: job.id, left: job.rows.filter((r) => r.state !== 'done').length });
    const held = holdLease(opts, jobs, job, takeoverMs);
    const p = tracked(opts.work, 'bulk', `bulk job ${job.id}`, () => run(job, notifier, held.lease))
      .catch((error: unknown) => {
        // Taken over while writing the job whole (a pause or the end): the new owner carries on.
        if (error instanceof JobTakenOverError) return lost(job);
        logger.error('bulk job stopped by an error', { job: job.id, error: String(error) });
        return 'failed' as const;
      })
      .then(async (result) => {
        await held.end();
        // Paused for a stop: another runner may take it at once. Paused because the database did not
        // record a row, or failed: the lease runs out first, so the next try waits BULK_TAKEOVER_SECONDS.
        if (result === 'paused' && stopping) {
          await store.release(job.id).catch((error: unknown) => {
            logger.warn('bulk job: could not let go of its lease; it is taken over once it runs out', {
              job: job.id,
              error: String(error),
            });
          });
        }
        return result;
      })
      .finally(() => runs.delete(job.id));
    runs.set(
      job.id,
      p.then(() => undefined),
    );
    return p;
  }

  /** Takes the jobs nobody holds (all unfinished ones with `force`) and runs them; resolves with how many. */
  async function takeFree(force: boolean): Promise<number> {
    const notifierFor = notifierOf;
    if (!notifierFor || stopping) return 0;
    const ids = force ? (await store.unfinished()).map((j) => j.id) : await store.free();
    let taken = 0;
    for (const id of ids) {
      if (stopping) break;
      if (runs.has(id) || !(await store.claim(id, force))) continue;
      const job = await store.load(id);
      if (job?.state !== 'running') {
        await store.release(id);
        continue;
      }
      taken++;
      if (!force) logger.info('taking over a bulk job nobody holds', { job: id });
      void launch(job, notifierFor(job));
    }
    return taken;
  }

  return {
    async start(job, notifier) {
      if (stopping) throw new Error('License Desk is stopping; start the bulk job again in a minute');
      await store.save(job);
      void launch(job, notifier);
    },
    async resumeAll(notifierFor) {
      await sweep().catch((error: unknown) => logger.warn('could not delete old bulk jobs', { error: String(error) }));
      notifierOf = notifierFor;
      const taken = await takeFree(opts.soleProcess === true);
      poller ??= jobs.add({
        name: 'bulk: take on jobs nobody holds',
        everyMs: pollMs,
        run: () =>
          takeFree(false).catch((error: unknown) =>
            logger.warn('bulk jobs: could not look for jobs to take on', { error: String(error) }),
          ),
      });
      return taken;
    },
    settled: (jobId) => runs.get(jobId) ?? Promise.resolve(),
    async stop(timeoutMs = 5000) {
      stopping = true;
      await poller?.stop(0);
      poller = undefined;
      const all = Promise.all(runs.values());
      await within(jobs.timers, all, timeoutMs);
    },
  };
}
