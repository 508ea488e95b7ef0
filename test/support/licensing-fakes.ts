/** Test doubles for the licensing client's unit tests: a recording limiter and a recording logger. */
import { QueueFullError } from '../../src/kernel/licensing/errors.js';
import type { Priority, RateLimiter, RateLimitReport } from '../../src/kernel/licensing/limiter.js';
import type { Logger } from '../../src/kernel/licensing/types.js';

export interface RecordingLimiter extends RateLimiter {
  scheduled: Priority[];
  rateLimited: RateLimitReport[];
  /** What onRateLimited answers: a pause of its own (the core then resubmits at once) or undefined. */
  pauseMs: number | undefined;
  successes: number;
  stopped: boolean;
  /** Makes the next schedule() call refuse with QueueFullError. */
  refuseNext: boolean;
}

export function createRecordingLimiter(): RecordingLimiter {
  const limiter: RecordingLimiter = {
    scheduled: [],
    rateLimited: [],
    pauseMs: undefined,
    successes: 0,
    stopped: false,
    refuseNext: false,
    async schedule(priority, fn) {
      if (limiter.refuseNext) {
        limiter.refuseNext = false;
        throw new QueueFullError(12, { endpoint: 'rate limiter' });
      }
      limiter.scheduled.push(priority);
      return fn();
    },
    onRateLimited(report) {
      limiter.rateLimited.push(report);
      return limiter.pauseMs;
    },
    onSuccess() {
      limiter.successes++;
    },
    stats: () => ({ currentLimit: 25, configuredLimit: 25, queued: 0, running: 0 }),
    estimateWaitMs: () => 0,
    async stop() {
      limiter.stopped = true;
    },
  };
  return limiter;
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

/** A logger that keeps its lines; `onLine` hears each one after it is kept. */
export function createRecordingLogger(
  onLine: (line: LogLine) => void = () => undefined,
): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const at = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) => {
    const line = { level, message, fields };
    lines.push(line);
    onLine(line);
  };
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => JSON.stringify(lines),
  };
}

/** Everything an error could show: message, stack, own enumerable fields, and its cause chain. */
export function everythingAbout(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    parts.push(current.message, current.stack ?? '', JSON.stringify(current), String(current));
    current = current.cause;
  }
  return parts.join('\n');
}
