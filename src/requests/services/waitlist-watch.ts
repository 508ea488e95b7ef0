/**
 * The background check for seats freed outside License Desk (a revoke in the licensing service's web
 * interface, a license that simply ended): at most every 15 minutes, it reads the pools that have
 * somebody waiting, and only those, at background priority, and hands a pool with a free seat to
 * waitlist.seatFreed. It keeps to a share of the rate budget like the dashboard: at most
 * floor(limit × share) pool reads a round (the pools not read are read first next round), and a round
 * is skipped while background work would wait long for a slot (a bulk job running). The clock is
 * injected and tick() is public, as in jobs/daily.ts: tests never wait 15 minutes.
 */
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { createJobRunner, type Job, type JobRunner } from '../../kernel/services/jobs/runner.js';
import type { Waitlist } from './waitlist.js';

const BACKGROUND = { priority: 'background', fresh: true } as const;

export type WatchTick =
  | { ran: true; read: string[]; withSeats: string[] }
  | { ran: false; reason: 'not-due' | 'nobody-waits' | 'busy' | 'running' | 'stopped' };

export interface WaitlistWatch {
  start(): void;
  stop(): Promise<void>;
  /** One round if due: `force` ignores the interval (not the busy check). */
  tick(opts?: { force?: boolean }): Promise<WatchTick>;
}

export interface WaitlistWatchOptions {
  waitlist: Pick<Waitlist, 'waitingPools' | 'seatFreed'>;
  licensing: Pick<LicensingClient, 'pools' | 'limiter'>;
  now: () => Date;
  logger: Logger;
  /** The licensing budget: `limit` requests per `windowMs`, and the share a round may read. */
  limit: number;
  windowMs: number;
  share: number;
  /** Least time between two rounds; default 15 minutes. */
  intervalMs?: number;
  /** Skip a round while background work would wait longer; default windowMs / 2. */
  maxWaitMs?: number;
  /** How often the runner ticks it; default one minute. */
  tickMs?: number;
  /** The runner it is a job of; default one of its own. */
  jobs?: JobRunner;
}

export const WATCH_INTERVAL_MS = 15 * 60_000;

export function createWaitlistWatch(opts: WaitlistWatchOptions): WaitlistWatch {
  const intervalMs = opts.intervalMs ?? WATCH_INTERVAL_MS;
  const maxWaitMs = opts.maxWaitMs ?? opts.windowMs / 2;
  const perRound = Math.max(1, Math.floor(opts.limit * opts.share));
  let lastRound = Number.NEGATIVE_INFINITY;
  let running: Promise<WatchTick> | undefined;
  let job: Job | undefined;
  let stopped = false;
  // Pools read least recently go first, so a long list is covered over a few rounds.
  const readAt = new Map<string, number>();

  async function round(): Promise<WatchTick> {
    const pools = await opts.waitlist.waitingPools();
    if (pools.length === 0) return { ran: false, reason: 'nobody-waits' };
    if (opts.licensing.limiter.estimateWaitMs('background') > maxWaitMs) {
      opts.logger.info('waitlist check skipped: background work would wait long for the licensing budget');
      return { ran: false, reason: 'busy' };
    }
    lastRound = opts.now().getTime();
    const chosen = [...pools]
      .sort((a, b) => (readAt.get(a) ?? 0) - (readAt.get(b) ?? 0) || a.localeCompare(b))
      .slice(0, perRound);
    const withSeats: string[] = [];
    for (const poolId of chosen) {
      readAt.set(poolId, opts.now().getTime());
      try {
        const pool = await opts.licensing.pools.get(poolId, BACKGROUND);
        if (pool.availableLicenses > 0) withSeats.push(poolId);
      } catch (error) {
        opts.logger.warn('waitlist check: could not read a pool', { poolId, error: String(error) });
      }
    }
    for (const poolId of withSeats) {
      try {
        const result = await opts.waitlist.seatFreed(poolId, { priority: 'background' });
        opts.logger.info('waitlist check: seats given', {
          poolId,
          assigned: result.assigned.length,
          skipped: result.skipped.length,
        });
      } catch (error) {
        opts.logger.warn('waitlist check: could not give a free seat', { poolId, error: String(error) });
      }
    }
    for (const id of readAt.keys()) if (!pools.includes(id)) readAt.delete(id);
    return { ran: true, read: chosen, withSeats };
  }

  const watch: WaitlistWatch = {
    start() {
      if (job || stopped) return;
      const jobs = opts.jobs ?? createJobRunner({ logger: opts.logger });
      job = jobs.add({
        name: 'waitlist: watch for freed seats',
        everyMs: opts.tickMs ?? 60_000,
        run: () =>
          watch.tick().catch((error: unknown) => opts.logger.warn('waitlist check failed', { error: String(error) })),
      });
    },
    async stop() {
      stopped = true;
      await job?.stop(0);
      job = undefined;
      await running?.catch(() => undefined);
    },
    async tick({ force = false } = {}) {
      if (stopped) return { ran: false, reason: 'stopped' };
      if (running) return { ran: false, reason: 'running' };
      if (!force && opts.now().getTime() - lastRound < intervalMs) return { ran: false, reason: 'not-due' };
      running = round();
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
  };
  return watch;
}
