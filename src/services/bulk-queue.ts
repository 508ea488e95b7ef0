/**
 * Bulk jobs as a queue on Redis (REDIS_URL), with BullMQ: a job is added once by the replica that got
 * the submission and run by exactly one replica, the one whose worker takes it. That worker holds the
 * job's lock and renews it while the job runs; if the replica dies, the lock expires after
 * `takeoverMs` and another replica's stalled-job check hands the job to its own worker, which carries
 * on from the rows kept in Redis (bulk-jobs-redis.ts). A replica that stops (SIGTERM) hands its job
 * back at once (moved to delayed with no delay) after its current row.
 */
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../licensing/types.js';
import { KEY_PREFIX } from './shared-store.js';

/** 'paused': handed back (this replica is stopping); 'done': finished or nothing left to run. */
export type QueuedRunResult = 'done' | 'paused';

export interface BulkQueue {
  /** Adds the job (again: adding an id already queued or running does nothing). */
  enqueue(jobId: string): Promise<void>;
  /** Starts this replica's worker; `run` carries one job to its end or hands it back. */
  work(run: (jobId: string) => Promise<QueuedRunResult>): void;
  /** Stops taking jobs and closes the connections, waiting at most `timeoutMs` for the job in hand. */
  close(timeoutMs: number): Promise<void>;
}

export interface BulkQueueOptions {
  redisUrl: string;
  logger: Logger;
  /** How long a dead replica's job waits before another replica takes it (lock and stalled check). */
  takeoverMs: number;
  /** Jobs one replica runs at a time; default 4 (they share the licensing limiter anyway). */
  concurrency?: number;
}

const QUEUE = 'bulk-assign';

export function createBulkQueue(opts: BulkQueueOptions): BulkQueue {
  const { logger } = opts;
  // BullMQ's blocking commands need a connection that retries forever (maxRetriesPerRequest: null).
  // Adding a job fails fast instead (a person waits for the start), as the job store does.
  const connect = (name: string, maxRetriesPerRequest: number | null) => {
    const client = new Redis(opts.redisUrl, { maxRetriesPerRequest, connectionName: name });
    client.on('error', () => undefined);
    return client;
  };
  // One warning per outage, not one per reconnect attempt.
  let down = false;
  const warn = (what: string) => (error: unknown) => {
    if (down) return;
    down = true;
    logger.warn(`bulk queue: ${what}; jobs wait until Redis is back`, { error: String(error) });
  };
  const prefix = `${KEY_PREFIX}bull`;
  const queueConnection = connect('license-desk-bulk-queue', 3);
  queueConnection.on('ready', () => {
    down = false;
  });
  const queue = new Queue(QUEUE, { connection: queueConnection, prefix });
  queue.on('error', warn('Redis error'));
  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;

  return {
    async enqueue(jobId) {
      await queue.add(
        'bulk',
        { id: jobId },
        // A run that fails (Redis away mid-job) is tried again every 10 s for hours, never dropped early.
        { jobId, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 }, attempts: 1000, backoff: 10_000 },
      );
    },
    work(run) {
      if (worker) return;
      workerConnection = connect('license-desk-bulk-worker', null);
      worker = new Worker(
        QUEUE,
        async (job, token) => {
          const id = String((job.data as { id?: unknown }).id ?? job.id);
          const result = await run(id);
          if (result === 'paused') {
            // Back to the queue for whichever replica is next (another one, or this one after a restart).
            await job.moveToDelayed(Date.now() + 1_000, token);
            throw new DelayedError();
          }
        },
        {
          connection: workerConnection,
          prefix,
          concurrency: opts.concurrency ?? 4,
          lockDuration: opts.takeoverMs,
          stalledInterval: opts.takeoverMs,
          // A job whose replica died is taken over each time; it is never failed for it.
          maxStalledCount: 1000,
        },
      );
      worker.on('error', warn('worker error'));
      worker.on('failed', (job, error) =>
        logger.warn('bulk queue: a job run failed', { job: job?.id, error: String(error) }),
      );
      worker.on('stalled', (jobId) =>
        logger.info('bulk queue: taking over a job whose replica stopped answering', { job: jobId }),
      );
    },
    async close(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const closing = worker?.close() ?? Promise.resolve();
      if ((await Promise.race([closing, bound])) === 'timeout') await worker?.close(true).catch(() => undefined);
      if (timer) clearTimeout(timer);
      await queue.close().catch(() => undefined);
      for (const c of [queueConnection, workerConnection]) await c?.quit().catch(() => c.disconnect());
    },
  };
}
