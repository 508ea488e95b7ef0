/** A logger that records its lines and lets a test wait for one (the event, not a sleep). */
import type { Logger } from '../../src/kernel/licensing/types.js';
import { createRecordingLogger, type LogLine } from './licensing-fakes.js';

export type { LogLine };

export interface WatchingLogger extends Logger {
  lines: LogLine[];
  /** The next line whose message matches, from now on. */
  next(match: RegExp): Promise<LogLine>;
  /** Resolves once the lines so far satisfy `done` (at once if they already do). */
  until(done: (lines: LogLine[]) => boolean): Promise<void>;
}

export function watchingLogger(): WatchingLogger {
  const waiters: ((line: LogLine) => boolean)[] = [];
  const { lines, debug, info, warn, error } = createRecordingLogger((line) => {
    for (const settled of waiters.splice(0)) if (!settled(line)) waiters.push(settled);
  });
  return {
    lines,
    debug,
    info,
    warn,
    error,
    next: (match) =>
      new Promise((resolve) => {
        waiters.push((line) => {
          if (!match.test(line.message)) return false;
          resolve(line);
          return true;
        });
      }),
    until: (done) =>
      new Promise((resolve) => {
        if (done(lines)) return resolve();
        waiters.push(() => {
          if (!done(lines)) return false;
          resolve();
          return true;
        });
      }),
  };
}
