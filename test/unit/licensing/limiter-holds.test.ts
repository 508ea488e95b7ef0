/** Held slots and stop (limiter-holds.ts) on a fake clock. */
import { describe, expect, it } from 'vitest';
import { createHolds } from '../../../src/kernel/licensing/limiter/limiter-holds.js';
import { createFakeClock, turn } from '../../support/limiter-fake-clock.js';

/** Whether the promise has settled once pending callbacks ran. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await turn();
  return settled;
}

describe('held slots', () => {
  it('a hold ends exactly when its time has passed on the clock, not before', async () => {
    const clock = createFakeClock();
    const holds = createHolds(clock);
    const hold = holds.hold(1_050);
    clock.advance(1_049);
    expect(await isSettled(hold)).toBe(false);
    clock.advance(1);
    expect(await isSettled(hold)).toBe(true);
  });

  it('counts taken slots until each is released, once', () => {
    const holds = createHolds(createFakeClock());
    const a = holds.take();
    const b = holds.take();
    expect(holds.held()).toBe(2);
    a();
    a();
    expect(holds.held()).toBe(1);
    b();
    expect(holds.held()).toBe(0);
  });

  it('waits for the requests in flight, and passes their results and errors through', async () => {
    const clock = createFakeClock();
    const holds = createHolds(clock);
    expect(await isSettled(holds.whenNoneInFlight())).toBe(true);
    const ok = holds.inFlight(async () => {
      await clock.sleep(50);
      return 'answer';
    });
    const failing = holds.inFlight(async () => {
      await clock.sleep(80);
      throw new Error('reset');
    });
    const failed = failing.catch((e: unknown) => e);
    const idle = holds.whenNoneInFlight();
    clock.advance(50);
    await expect(ok).resolves.toBe('answer');
    expect(await isSettled(idle)).toBe(false);
    clock.advance(30);
    expect(String(await failed)).toContain('reset');
    expect(await isSettled(idle)).toBe(true);
  });

  it('stopping: new holds end at once, running ones go on until cut', async () => {
    const clock = createFakeClock();
    const holds = createHolds(clock);
    const running = holds.hold(60_000);
    holds.endNewHolds();
    expect(await isSettled(holds.hold(60_000))).toBe(true);
    expect(await isSettled(running)).toBe(false);
    holds.cut();
    expect(await isSettled(running)).toBe(true);
    // Nothing left on the clock that would keep a process alive.
    expect(clock.pending()).toBe(0);
  });
});
