/**
 * The periodic reminder and expiry check of course requests: every `everyMs` (default 5 minutes) it
 * runs the service's check. `tick()` is public and the clock is the service's, so tests never wait.
 */
import type { Logger } from '../../kernel/licensing/types.js';
import type { RequestService } from './service.js';

export interface RequestCheck {
  start(): void;
  stop(): Promise<void>;
  tick(): Promise<{ reminded: number; expired: number } | 'busy'>;
}

export function createRequestCheck(service: RequestService, logger: Logger, everyMs = 5 * 60_000): RequestCheck {
  let timer: NodeJS.Timeout | undefined;
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
      timer ??= setInterval(() => {
        tick().catch((error: unknown) => logger.warn('course request check failed', { error: String(error) }));
      }, everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
    tick,
  };
}
