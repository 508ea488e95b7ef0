/**
 * The one place the limiter reaches into bottleneck's private state (docs/rate-limiting.md, "The yield
 * patch").
 *
 * bottleneck 2.19.5's local datastore yields to the event loop with `setTimeout(resolve, 0)` before each
 * submit and each register, one job at a time under a lock. Node clamps that timeout to 1 ms, so a burst
 * of 25 jobs needed 80–110 ms just to start. No supported option changes it: the options a limiter
 * accepts are copied from fixed defaults (datastore, Promise, heartbeatInterval, …), and a custom
 * `Promise` only wraps the executor that still calls setTimeout. So for a limiter object this module
 * replaces `_store.yieldLoop` with a setImmediate turn: still a real turn of the event loop, without the
 * clamp. It is never applied to the Redis datastore (it does not yield that way).
 *
 * If bottleneck changes, checkYieldHook says what is missing and the limiter keeps bottleneck's own yield
 * (slower bursts, same pacing); test/unit/licensing/limiter-yield.test.ts fails with that message.
 */
import Bottleneck from 'bottleneck';

/** The bottleneck release this hook was written against (package.json pins it exactly). */
export const PATCHED_BOTTLENECK_VERSION = '2.19.5';

/** undefined when the hook can be applied to this limiter; else what changed in bottleneck. */
export function checkYieldHook(limiter: Bottleneck): string | undefined {
  // The typings do not declare the static `version` bottleneck has.
  const version: unknown = Reflect.get(Bottleneck, 'version');
  if (version !== PATCHED_BOTTLENECK_VERSION) {
    return `bottleneck is ${String(version)}, the yield hook was written for ${PATCHED_BOTTLENECK_VERSION}`;
  }
  const store: unknown = Reflect.get(limiter, '_store');
  if (typeof store !== 'object' || store === null) return 'bottleneck limiter has no _store object';
  const yieldLoop: unknown = Reflect.get(store, 'yieldLoop');
  if (typeof yieldLoop !== 'function') return "bottleneck's _store has no yieldLoop function";
  // yieldLoop(t = 0): one optional parameter, so length 0 once compiled.
  if (yieldLoop.length > 1) return `bottleneck's _store.yieldLoop takes ${yieldLoop.length} parameters, not at most 1`;
  return undefined;
}

/** Makes this one local limiter yield with setImmediate; returns why not when it cannot. */
export function yieldWithSetImmediate(limiter: Bottleneck): string | undefined {
  const problem = checkYieldHook(limiter);
  if (problem !== undefined) return problem;
  const store = Reflect.get(limiter, '_store') as object;
  const set = Reflect.set(store, 'yieldLoop', () => new Promise<void>((resolve) => setImmediate(resolve)));
  return set ? undefined : "bottleneck's _store.yieldLoop cannot be replaced";
}
