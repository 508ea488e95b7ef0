/**
 * Runs bulk jobs: one row at a time at BACKGROUND priority, so the limiter's
 * reserved slots keep other people's commands responsive; each row is recorded as in flight before
 * its write, and as done after it (one store write per row: a row's "done" goes with the next row's
 * "sending"). A row whose write went out without a clear answer (a timeout, a 5xx, or a restart or
 * takeover while it was in flight) is resolved by reading back (the student's licenses), never by
 * sending it blindly again (design.md section 3): a repeated assign with recycle would end a second
 * license.
 *
 * Without a queue, jobs run in the process that started them and resume at its next start. With a
 * queue (REDIS_URL, bulk-queue.ts), a job is handed to the queue and run by whichever replica takes
 * it; another replica takes it over if that one dies (docs/deployment.md).
 */
import { count } from '../domain/count.js';
import { isLicensingError } from '../licensing/errors.js';
import type { LicensingClient, Logger } from '../licensing/types.js';
import { readBackAssign } from './assign.js';
import type { AuditLog } from './audit.js';
import { type BulkJob, type BulkJobStore, type JobRow, JobTakenOverError, KEEP_FINISHED_MS } from './bulk-jobs.js';
import { assignBulkLine } from './bulk-line.js';
import { rowFailure } from './bulk-outcome.js';
import type { BulkQueue } from './bulk-queue.js';
import { tracked, type WorkTracker } from './work-tracker.js';

const BACKGROUND = { priority: 'background' } as const;
/** Slack's chat.update is Tier 3, and a person does not read faster: at most one update per 3 s. */
export const PROGRESS_EVERY_MS = 3000;

/** What the runner tells the requester; the Slack side implements it. Failures are logged, not fatal. */
export interface BulkNotifier {
  /** Posts the progress message; returns where it is, so later updates (and a resumed job) edit it. */
  started(job: BulkJob): Promise<{ channel: string; ts: string } | undefined>;
  progress(job: BulkJob): Promise<void>;
  finished(job: BulkJob): Promise<void>;
}

export interface BulkRunner {
  /** Persists the job, then runs it in the background; resolves once it is on disk. */
  start(job: BulkJob, notifier: BulkNotifier): Promise<void>;
  /** Resumes every unfinished job in DATA_DIR; resolves with how many. */
  resumeAll(notifierFor: (job: BulkJob) => BulkNotifier): Promise<number>;
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
  /** REDIS_URL: jobs go through the shared queue; `own` takes a job for this replica before it runs. */
  queue?: { queue: BulkQueue; own(jobId: string): Promise<void> } | undefined;
}

/** The store could not record a row as in flight, so it was not sent (DATA_DIR or Redis unreachable). */
class NotRecordedError extends Error {
  override readonly name = 'NotRecordedError';
}

export function createBulkRunner(opts: BulkRunnerOptions): BulkRunner {
  const { licensing, store, logger } = opts;
  const runs = new Map<string, Promise<void>>();
  let stopping = false;

  /** Does the student hold an active license from this pool? The single assign's rule, in the background. */
  const readBack = (job: BulkJob, row: JobRow) => readBackAssign(licensing, job.poolId, row.email, BACKGROUND.priority);

  async function audit(job: BulkJob, row: JobRow): Promise<void> {
    const outcome =
      row.outcome === 'assigned'
        ? 'done'
        : row.outcome === 'unknown'
          ? 'unknown'
          : row.outcome === 'failed'
            ? 'failed'
            : 'refused';
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
  async function auditSummary(job: BulkJob): Promise<void> {
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

  /** One row to 'done', or left 'sending' when the process is stopping mid-write. `markSending`
   *  records the row in flight (with the rows done since the last write) before anything is sent. */
  async function runRow(
    job: BulkJob,
    row: JobRow,
    markSending: (row: JobRow) => Promise<void>,
  ): Promise<'done' | 'stop' | 'abort'> {
    if (row.state === 'sending') {
      // The last process stopped after sending this row and before recording its outcome.
      const found = await readBack(job, row);
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
    if (stopping && !(result.kind === 'done' && !result.checked)) return 'stop';
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
        Object.assign(row, rowFailure(result.error), { state: 'done' });
        // A token that is refused will be refused for every later row too.
        const kind = isLicensingError(result.error) ? result.error.kind : undefined;
        return kind === 'unauthorized' || kind === 'forbidden' ? 'abort' : 'done';
      }
    }
  }

  /** 'paused': stopped for a shutdown, rows left; 'lost': another replica took the job over. */
  async function run(job: BulkJob, notifier: BulkNotifier): Promise<'done' | 'paused' | 'lost'> {
    // Rows done since the last store write: written with the next row's "sending" mark, or with the job.
    const unsaved: JobRow[] = [];
    const markSending = async (row: JobRow) => {
      const rows = [...unsaved.splice(0), row];
      try {
        await store.saveRows(job, rows);
      } catch (error) {
        if (error instanceof JobTakenOverError) throw error;
        // Nothing was sent: the row goes back to what it was and the job pauses (store unreachable).
        unsaved.push(...rows.slice(0, -1));
        throw new NotRecordedError(String(error));
      }
    };
    const safely = async (what: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
      } catch (error) {
        logger.warn(`bulk job: could not ${what}`, { job: job.id, error: String(error) });
      }
    };
    if (!job.progress) {
      await safely('post the progress message', async () => {
        const where = await notifier.started(job);
        if (where) job.progress = where;
        await store.save(job);
      });
    }
    let lastProgress = opts.now().getTime();
    let aborted = false;
    for (const row of job.rows) {
      if (row.state === 'done') continue;
      if (stopping) break;
      if (aborted) {
        Object.assign(row, {
          state: 'done',
          outcome: 'skipped',
          detail: 'Not sent: the licensing service refused the job.',
        });
        continue;
      }
      let result: 'done' | 'stop' | 'abort';
      try {
        result = await runRow(job, row, markSending);
      } catch (error) {
        if (error instanceof JobTakenOverError) {
          logger.warn('bulk job taken over by another replica; this one stops running it', { job: job.id });
          return 'lost';
        }
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
        // Reading back failed: the outcome stays unknown rather than risk a second write.
        if (stopping) break;
        Object.assign(row, { state: 'done', outcome: 'unknown' });
        row.detail = 'The outcome could not be checked; look this student up before trying again.';
        logger.warn('bulk job: read-back failed', { job: job.id, line: row.line, error: String(error) });
        result = 'done';
      }
      if (result === 'stop') break;
      if (result === 'abort') aborted = true;
      unsaved.push(row);
      await safely('write the audit entry', () => audit(job, row));
      const t = opts.now().getTime();
      if (t - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = t;
        await safely('update the progress message', () => notifier.progress(job));
      }
    }
    if (stopping && job.rows.some((r) => r.state !== 'done')) {
      await store.save(job);
      logger.info(
        queue
          ? 'bulk job paused for shutdown; another replica carries on'
          : 'bulk job paused for shutdown; it resumes at the next start',
        { job: job.id },
      );
      return 'paused';
    }
    job.state = 'done';
    job.finishedAt = opts.now().toISOString();
    await store.save(job);
    await safely('post the results', () => notifier.finished(job));
    await safely('write the audit summary', () => auditSummary(job));
    logger.info('bulk job finished', { job: job.id, rows: job.rows.length });
    await safely('delete old finished jobs', () => sweep());
    return 'done';
  }

  const sweep = async () => {
    const removed = await store.sweep(new Date(opts.now().getTime() - KEEP_FINISHED_MS));
    if (removed > 0) logger.info('old finished bulk jobs deleted', { removed });
  };

  function launch(job: BulkJob, notifier: BulkNotifier): Promise<'done' | 'paused' | 'lost' | 'failed'> {
    const p = tracked(opts.work, 'bulk', `bulk job ${job.id}`, () => run(job, notifier))
      .catch((error: unknown) => {
        logger.error('bulk job stopped by an error', { job: job.id, error: String(error) });
        return 'failed' as const;
      })
      .finally(() => runs.delete(job.id));
    runs.set(
      job.id,
      p.then(() => undefined),
    );
    return p;
  }

  const queue = opts.queue?.queue;

  return {
    async start(job, notifier) {
      if (stopping) throw new Error('License Desk is stopping; start the bulk job again in a minute');
      await store.save(job);
      if (queue) await queue.enqueue(job.id);
      else void launch(job, notifier);
    },
    async resumeAll(notifierFor) {
      await sweep().catch((error: unknown) => logger.warn('could not delete old bulk jobs', { error: String(error) }));
      if (queue && opts.queue) {
        const { own } = opts.queue;
        // Redis down at start: the worker below waits for it; the app starts and says what is wrong.
        const jobs = await store.unfinished().catch((error: unknown) => {
          logger.warn('bulk jobs: Redis unreachable at start; queued jobs run once it is back', {
            error: String(error),
          });
          return [];
        });
        // Jobs whose queue entry was lost (Redis flushed, say) are queued again; a queued id is left as it is.
        for (const job of jobs) {
          await queue.enqueue(job.id).catch((error: unknown) => {
            logger.warn('bulk jobs: could not queue an unfinished job again', { job: job.id, error: String(error) });
          });
        }
        queue.work(async (jobId) => {
          if (stopping) return 'paused';
          await own(jobId);
          const job = await store.load(jobId);
          if (job?.state !== 'running') return 'done';
          logger.info('running a bulk job', { job: job.id, left: job.rows.filter((r) => r.state !== 'done').length });
          const result = await launch(job, notifierFor(job));
          if (result === 'failed') throw new Error(`bulk job ${job.id} stopped by an error`);
          return result === 'paused' ? 'paused' : 'done';
        });
        return jobs.length;
      }
      const jobs = await store.unfinished();
      for (const job of jobs) {
        if (runs.has(job.id)) continue;
        logger.info('resuming a bulk job', { job: job.id, left: job.rows.filter((r) => r.state !== 'done').length });
        void launch(job, notifierFor(job));
      }
      return jobs.length;
    },
    settled: (jobId) => runs.get(jobId) ?? Promise.resolve(),
    async stop(timeoutMs = 5000) {
      stopping = true;
      const all = Promise.all(runs.values());
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([all, timeout]);
      if (timer) clearTimeout(timer);
      await queue?.close(1000);
    },
  };
}
