/**
 * Redis readiness (docs/rate-limiting.md, "Redis"): a job may go to the shared budget only once Redis is
 * connected and the configured limit pushed. Until then it waits at most `timeoutMs`; while Redis is
 * known to be down it is refused at once. Without Redis the limiter is ready from the start.
 */
import type { Clock } from './limiter-clock.js';

export interface Readiness {
  /** Resolves once ready; rejects at once while down, or after timeoutMs without an answer. */
  whenReady(): Promise<void>;
  isReady(): boolean;
}

export function createReadiness(opts: {
  /** The set-up to wait for; undefined: ready at once (no Redis). */
  setup: Promise<void> | undefined;
  clock: Clock;
  timeoutMs: number;
  isDown: () => boolean;
  /** The error for a job refused while Redis is down. */
  unavailable: () => Error;
  /** The error for a job that waited timeoutMs. */
  timedOut: (timeoutMs: number) => Error;
}): Readiness {
  let ready = opts.setup === undefined;
  opts.setup?.then(
    () => {
      ready = true;
    },
    () => undefined,
  );
  return {
    isReady: () => ready,
    whenReady() {
      if (opts.isDown()) return Promise.reject(opts.unavailable());
      if (ready || opts.setup === undefined) return Promise.resolve();
      const setup = opts.setup;
      return new Promise<void>((resolve, reject) => {
        const timer = opts.clock.setTimer(() => reject(opts.timedOut(opts.timeoutMs)), opts.timeoutMs);
        setup.then(
          () => {
            timer.cancel();
            resolve();
          },
          (error: unknown) => {
            timer.cancel();
            reject(error);
          },
        );
      });
    },
  };
}
