/**
 * The yield patch (limiter-yield.ts) against the installed bottleneck. These tests fail with a message
 * naming what changed when bottleneck is upgraded: then re-read its LocalDatastore and this patch.
 */
import Bottleneck from 'bottleneck';
import { describe, expect, it } from 'vitest';
import * as yieldPatch from '../../../src/kernel/licensing/limiter/limiter-yield.js';

describe('the yield patch of bottleneck', () => {
  it('still fits the installed bottleneck (private _store.yieldLoop, same version)', () => {
    const problem = yieldPatch.checkYieldHook(new Bottleneck({ maxConcurrent: 1 }));
    expect(
      problem,
      `bottleneck changed under src/kernel/licensing/limiter/limiter-yield.ts (${problem}); bursts would start slower. Re-check the patch.`,
    ).toBeUndefined();
  });

  it('bottleneck still yields through _store.yieldLoop when a job is scheduled', async () => {
    const limiter = new Bottleneck({ maxConcurrent: 1 });
    expect(yieldPatch.yieldWithSetImmediate(limiter)).toBeUndefined();
    const store = Reflect.get(limiter, '_store') as object;
    const patched = Reflect.get(store, 'yieldLoop') as () => Promise<void>;
    let calls = 0;
    Reflect.set(store, 'yieldLoop', () => {
      calls++;
      return patched();
    });
    await expect(limiter.schedule(async () => 'done')).resolves.toBe('done');
    expect(
      calls,
      `bottleneck ${yieldPatch.PATCHED_BOTTLENECK_VERSION} no longer calls _store.yieldLoop: the patch in src/kernel/licensing/limiter/limiter-yield.ts does nothing`,
    ).toBeGreaterThan(0);
    await limiter.stop();
  });

  it('says what is missing instead of patching a bottleneck that changed', () => {
    const changed = new Bottleneck({ maxConcurrent: 1 });
    Reflect.set(changed, '_store', { yieldLoop: 'not a function' });
    expect(yieldPatch.yieldWithSetImmediate(changed)).toBe("bottleneck's _store has no yieldLoop function");
    Reflect.set(changed, '_store', undefined);
    expect(yieldPatch.checkYieldHook(changed)).toBe('bottleneck limiter has no _store object');
  });
});
