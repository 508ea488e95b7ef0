/**
 * The background check for seats freed outside License Desk: its interval on an injected clock, the
 * pools it reads (only those with a line, at background priority, never from the cache, at most a
 * share of the budget a round, least recently read first), and the round it skips while background
 * work would wait long for a slot.
 */
import { describe, expect, it } from 'vitest';
import { createWaitlistWatch } from '../../../src/requests/services/waitlist-watch.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { makePool } from '../../support/fixtures.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function setup(waiting: string[], free: string[] = []) {
  const pools = waiting.map((id) => makePool({ id, availableLicenses: free.includes(id) ? 1 : 0 }));
  const licensing = createFakeLicensing({ pools });
  let wait = 0;
  licensing.limiter.estimateWaitMs = () => wait;
  let clock = Date.parse('2026-03-01T12:00:00Z');
  const given: { poolId: string; priority: string | undefined }[] = [];
  const watch = createWaitlistWatch({
    waitlist: {
      waitingPools: async () => [...waiting],
      seatFreed: async (poolId, opts) => {
        given.push({ poolId, priority: opts?.priority });
        return { free: 1, assigned: [], skipped: [] };
      },
    },
    licensing,
    now: () => new Date(clock),
    logger: quiet,
    limit: 25,
    windowMs: 60_000,
    share: 0.2,
  });
  const reads = () => licensing.calls.filter((c) => c.method === 'pools.get');
  return {
    watch,
    licensing,
    given,
    reads,
    advance: (ms: number) => {
      clock += ms;
    },
    setWait: (ms: number) => {
      wait = ms;
    },
  };
}

describe('waitlist background check', () => {
  it('reads only the pools with a line, fresh and at background priority, and hands a free seat on', async () => {
    const s = setup(['2001', '2003'], ['2003']);
    expect(await s.watch.tick()).toEqual({ ran: true, read: ['2001', '2003'], withSeats: ['2003'] });
    expect(s.reads().map((c) => c.opts)).toEqual([
      { priority: 'background', fresh: true },
      { priority: 'background', fresh: true },
    ]);
    expect(s.given).toEqual([{ poolId: '2003', priority: 'background' }]);
  });

  it('runs at most every 15 minutes', async () => {
    const s = setup(['2003']);
    expect((await s.watch.tick()).ran).toBe(true);
    s.advance(14 * 60_000);
    expect(await s.watch.tick()).toEqual({ ran: false, reason: 'not-due' });
    s.advance(60_000);
    expect((await s.watch.tick()).ran).toBe(true);
    expect(s.reads()).toHaveLength(2);
  });

  it('reads at most floor(limit × share) pools a round, the least recently read first', async () => {
    const waiting = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'];
    const s = setup(waiting);
    const first = await s.watch.tick();
    expect(first).toMatchObject({ ran: true, read: ['p1', 'p2', 'p3', 'p4', 'p5'] });
    s.advance(15 * 60_000);
    const second = await s.watch.tick();
    expect(second).toMatchObject({ ran: true, read: ['p6', 'p7', 'p8', 'p1', 'p2'] });
  });

  it('skips the round while background work would wait more than half a window, and reads nothing', async () => {
    const s = setup(['2003'], ['2003']);
    s.setWait(45_000);
    expect(await s.watch.tick()).toEqual({ ran: false, reason: 'busy' });
    expect(s.reads()).toEqual([]);
    s.setWait(0);
    // A skipped round does not count as a round: the next tick runs at once.
    expect((await s.watch.tick()).ran).toBe(true);
  });
});
