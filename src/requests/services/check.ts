/**
 * The periodic reminder and expiry check of course requests: a job of the runner that runs the
 * service's check every `everyMs` (default 5 minutes). `tick()` is public and the clock is the
 * service's, so tests never wait.
 */
import type { Logger } from '../../kernel/licensing/types.js';
import { type JobRunner, startedJob } from '../../kernel/services/jobs/runner.js';
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
  const job = startedJob(jobs, logger, {
    name: 'requests: reminders and expiry',
    everyMs,
    run: () => tick().catch((error: unknown) => logger.warn('course request check failed', { error: String(error) })),
  });
  return {
    start: () => job.start(),
    async stop() {
      await job.stop(0);
      await running?.catch(() => undefined);
    },
    tick,
  };
}
