/**
 * The daily check with several replicas: two schedulers share one store (the in-memory
 * implementation of the interface Redis implements, with an injected clock) and one day memory, as
 * two replicas share Redis. The failure cases written down in scheduler.ts, one by one.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createDailyScheduler, sharedDayLock } from '../../../src/kernel/services/scheduler.js';
import { createMemoryStore } from '../../../src/kernel/services/shared-store.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const LEASE = 5 * 60_000;
const RETRY = 15 * 60_000;

function world(start: string) {
  let now = new Date(start).getTime();
  const store = createMemoryStore(() => now);
  let lastDay: string | undefined;
  const memory = {
    lastRunDay: async () => lastDay,
    setLastRunDay: async (d: string) => {
      lastDay = d;
    },
  };
  const runs: string[] = [];
  const replica = (
    name: string,
    run: () => Promise<void> = async () => undefined,
    afterRead: () => Promise<void> = async () => undefined,
  ) =>
    createDailyScheduler({
      time: '09:00',
      timeZone: 'UTC',
      now: () => new Date(now),
      memory: {
        ...memory,
        // What the replica read, handed over once `afterRead` resolves (a slow read, for the race).
        lastRunDay: async () => {
          const day = lastDay;
          await afterRead();
          return day;
        },
      },
      lock: sharedDayLock(store, 'alerts:daily', name),
      leaseMs: LEASE,
      retryMs: RETRY,
      logger,
      run: async () => {
        runs.push(name);
        await run();
      },
    });
  return {
    replica,
    runs,
    store,
    advance: (ms: number) => {
      now += ms;
    },
    lastDay: () => lastDay,
  };
}

describe('the daily check across replicas (one lease a day)', () => {
  it('two replicas ticking at once: one runs the check, the other stands aside, then sees it done', async () => {
    const w = world('2026-11-21T09:00:00Z');
    let finish: () => void = () => undefined;
    const a = w.replica('a', () => new Promise<void>((resolve) => (finish = resolve)));
    const b = w.replica('b');
    const first = a.tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await b.tick()).toBe('elsewhere');
    finish();
    expect(await first).toBe('ran');
    expect(await b.tick()).toBe('already-ran');
    expect(w.runs).toEqual(['a']);
    expect(w.lastDay()).toBe('2026-11-21');
  });

  it('a replica that read "not run yet" and takes the lease after another finished does not run it again', async () => {
    const w = world('2026-11-21T09:00:00Z');
    let reads = 0;
    let letRead: () => void = () => undefined;
    const slowRead = new Promise<void>((resolve) => (letRead = resolve));
    // b's first read of the day memory sees "not run yet" but answers only after a has finished.
    const b = w.replica('b', undefined, async () => {
      if (++reads === 1) await slowRead;
    });
    const late = b.tick();
    expect(await w.replica('a').tick()).toBe('ran');
    letRead();
    expect(await late).toBe('already-ran');
    expect(w.runs).toEqual(['a']);
  });

  it('a failed check holds the lease for the retry delay: no replica retries sooner, then one does', async () => {
    const w = world('2026-11-21T09:00:00Z');
    const a = w.replica('a', async () => {
      throw new Error('licensing down');
    });
    const b = w.replica('b');
    expect(await a.tick()).toBe('failed');
    w.advance(60_000);
    expect(await b.tick()).toBe('elsewhere');
    w.advance(RETRY);
    expect(await b.tick()).toBe('ran');
    expect(w.runs).toEqual(['a', 'b']);
  });

  it('a replica that dies mid-check leaves a lease that expires; another replica then runs the check', async () => {
    const w = world('2026-11-21T09:00:00Z');
    // The dead replica: it took the day's lease and will never renew or release it.
    expect(await w.store.claim('alerts:daily:lock:2026-11-21', 'dead', LEASE)).toBe(true);
    const b = w.replica('b');
    expect(await b.tick()).toBe('elsewhere');
    w.advance(LEASE);
    expect(await b.tick()).toBe('ran');
    expect(w.runs).toEqual(['b']);
  });

  it('a stop mid-check releases the lease at once for the other replicas', async () => {
    const w = world('2026-11-21T09:00:00Z');
    let fail: (e: Error) => void = () => undefined;
    const a = w.replica('a', () => new Promise<void>((_, reject) => (fail = reject)));
    const first = a.tick();
    await new Promise((resolve) => setImmediate(resolve));
    const stopping = a.stop(1_000);
    fail(new Error('licensing client closed'));
    await stopping;
    expect(await first).toBe('failed');
    expect(await w.replica('b').tick()).toBe('ran');
  });
});
