/**
 * The periodic reminder and expiry check of course requests: a job of the runner that runs the
 * service's check every `everyMs` (default 5 minutes). `tick()` is public and the clock is the
 * service's, so tests never wait.
 */
import type { Logger } from '../../kernel/licensing/types.js';
import { createJobRunner, type Job, type JobRunner } from '../../kernel/services/jobs/runner.js';
import type { RequestService } from './service.js';

export interface RequestCheck {
  start(): void;
  stop(): Promise<void>;
  tick(): Promise<{ reminded: number; expired: number } | 'busy'>;
}

export function createRequestCheck(
  service: RequestService,
  logger: Logger,
  everyMs = 5 * 60_000,
  jobs?: JobRunner,
): RequestCheck {
  let job: Job | undefined;
  let running: Promise<unknown> | undefined;
  const tick: RequestCheck['tick'] = async () => {
    if (running) return 'busy';
    const run = service.check();
    running = run;
    try {
      return await run;
    } finally {
      running = undefined;
    }
  };
  return {
    start() {
      job ??= (jobs ?? createJobRunner({ logger })).add({
        name: 'requests: reminders and expiry',
        everyMs,
        run: () =>
          tick().catch((error: unknown) => logger.warn('course request check failed', { error: String(error) })),
      });
    },
    async stop() {
      await job?.stop(0);
      job = undefined;
      await running?.catch(() => undefined);
    },
    tick,
  };
}
