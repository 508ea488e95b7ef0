/**
 * The sends of the last window, kept in memory for the 429 policy (our own count in the window) and,
 * with a file, persisted so that a restarted process knows what its predecessor sent: the service still
 * counts those requests for up to a window (docs/rate-limiting.md, "Restarts"). Each send is kept with
 * the time its slot is released, as the live limiter would release it: a window plus the margin after
 * its answer (the server may have counted it as late as that), or, while no answer has come, the job's
 * expiration.
 *
 * The file is tiny JSON written atomically (temporary file, fsync, rename), at most one write in flight
 * and one pending, so a burst of 25 sends costs two writes. It is read once, synchronously, when the
 * limiter is built. A file that is unreadable or belongs to another token is ignored with a warning.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-file.js';
import type { Logger } from '../types.js';

export interface SendLogOptions {
  /** How long a send counts for the 429 policy: the window plus the margin. */
  keepMs: number;
  now: () => number;
  /** Where to persist; none: memory only. */
  file?: string | undefined;
  /** Which budget the sends belong to (a hash of the token, never the token). */
  budget: string;
  logger: Logger;
}

export interface Send {
  /** When it was sent. */
  at: number;
  /** When its slot is released. */
  until: number;
}

export interface SendLog {
  /** The predecessor's sends whose slots are still held, read from the file at creation. */
  readonly inherited: readonly Send[];
  /** A send at `at` holding its slot until `until`; returns a function that moves `until` (the answer came). */
  record(at: number, until: number): (until: number) => void;
  /** Sends with fromExclusive < at < toExclusive. */
  countBetween(fromExclusive: number, toExclusive: number): number;
  /** Writes what is pending; resolves when the file is up to date. */
  flush(): Promise<void>;
}

interface SendsFile {
  version: 1;
  budget: string;
  /** [sent at, slot released at], ms since the epoch. */
  sends: [number, number][];
}

export function createSendLog(opts: SendLogOptions): SendLog {
  const { keepMs, now, file, logger } = opts;
  const inherited = file === undefined ? [] : readInherited(file, opts.budget, now(), logger);
  let sends: Send[] = inherited.map((s) => ({ ...s }));
  let writing: Promise<void> | undefined;
  let dirty = false;
  let warned = false;

  const prune = () => {
    const at = now();
    sends = sends.filter((s) => s.until > at || s.at > at - keepMs);
  };

  const writeLoop = async (path: string): Promise<void> => {
    while (dirty) {
      dirty = false;
      prune();
      const content: SendsFile = { version: 1, budget: opts.budget, sends: sends.map((s) => [s.at, s.until]) };
      try {
        await writeFileAtomic(path, `${JSON.stringify(content)}\n`);
      } catch (error) {
        if (!warned) {
          warned = true;
          logger.warn(
            'rate limiter: could not save the recent licensing requests; after a restart the first requests may draw a 429',
            { path, error: String(error) },
          );
        }
      }
    }
  };

  const schedule = () => {
    if (file === undefined) return;
    dirty = true;
    writing ??= writeLoop(file).finally(() => {
      writing = undefined;
    });
  };

  return {
    inherited,
    record(at, until) {
      const send = { at, until };
      sends.push(send);
      prune();
      schedule();
      return (answeredUntil) => {
        send.until = answeredUntil;
        schedule();
      };
    },
    countBetween(fromExclusive, toExclusive) {
      let n = 0;
      for (const s of sends) if (s.at > fromExclusive && s.at < toExclusive) n++;
      return n;
    },
    async flush() {
      while (writing !== undefined) await writing;
    },
  };
}

function readInherited(path: string, budget: string, at: number, logger: Logger): Send[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') {
      logger.warn('rate limiter: could not read the recent licensing requests; starting as if none were sent', {
        path,
        error: String(error),
      });
    }
    return [];
  }
  const parsed = parseSendsFile(text);
  if (parsed === undefined) {
    logger.warn(
      'rate limiter: the file of recent licensing requests is not what License Desk writes; starting as if none were sent (it is rewritten on the next request)',
      { path },
    );
    return [];
  }
  // Another token has a budget of its own: its sends do not count against ours.
  if (parsed.budget !== budget) return [];
  return parsed.sends
    .filter(([, until]) => until > at)
    .map(([sentAt, until]) => ({ at: sentAt, until }))
    .sort((a, b) => a.at - b.at);
}

function parseSendsFile(text: string): SendsFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, budget, sends } = value as Record<string, unknown>;
  if (version !== 1 || typeof budget !== 'string' || !Array.isArray(sends)) return undefined;
  const isTime = (t: unknown) => typeof t === 'number' && Number.isFinite(t);
  const valid = (s: unknown): s is [number, number] =>
    Array.isArray(s) && s.length === 2 && isTime(s[0]) && isTime(s[1]);
  if (!sends.every(valid)) return undefined;
  return { version, budget, sends };
}
