/** The daily progress pass as the end-to-end tests run it by hand, over a test app's licensing and records. */
import { createProgressPass, type ProgressPass, type ProgressPassOptions } from '../../src/services/progress-pass.js';
import type { TestApp } from './app-harness.js';

/**
 * A progress pass on `t` (its licensing client, records and logger) with the clock `now`, paced at 25
 * calls per 3 s and taking the whole share; `afterPass` as the app would wire it, when given.
 */
export function progressPassOn(
  t: TestApp,
  now: () => Date,
  afterPass?: ProgressPassOptions['afterPass'],
): ProgressPass {
  if (!t.records) throw new Error('no records');
  return createProgressPass({
    licensing: t.licensing,
    records: t.records,
    logger: t.deps.logger,
    now,
    rateLimit: { limit: 25, windowMs: 3000 },
    share: 1,
    ...(afterPass ? { afterPass } : {}),
  });
}
