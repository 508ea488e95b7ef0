/**
 * The send times of the last window, kept in memory for the 429 policy (our own count in the window)
 * and, with a file, persisted so that a restarted process knows what its predecessor sent: the
 * service still counts those requests for up to a window (docs/rate-limiting.md, "Restarts").
 *
 * The file is tiny JSON written atomically (temporary file, fsync, rename), at most one write in flight
 * and one pending, so a burst of 25 sends costs two writes. It is read once, synchronously, when the
 * limiter is built. A file that is unreadable or belongs to another token is ignored with a warning.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from './types.js';

export interface SendLogOptions {
  /** How long a send counts: the window plus the margin. */
  keepMs: number;
  now: () => number;
  /** Where to persist; none: memory only. */
  file?: string | undefined;
  /** Which budget the sends belong to (a hash of the token, never the token). */
  budget: string;
  logger: Logger;
}

export interface SendLog {
  /** The predecessor's sends still inside the window, read from the file at creation. */
  readonly inherited: readonly number[];
  record(at: number): void;
  /** Sends in (at − windowMs, at). */
  countBetween(fromExclusive: number, toExclusive: number): number;
  /** Writes what is pending; resolves when the file is up to date. */
  flush(): Promise<void>;
}

interface SendsFile {
  version: 1;
  budget: string;
  sends: number[];
}

export function createSendLog(opts: SendLogOptions): SendLog {
  const { keepMs, now, file, logger } = opts;
  const inherited = file === undefined ? [] : readInherited(file, opts.budget, now() - keepMs, logger);
  let sends: number[] = [...inherited];
  let writing: Promise<void> | undefined;
  let dirty = false;
  let warned = false;

  const prune = () => {
    const cutoff = now() - keepMs;
    if (sends.length > 0 && (sends[0] ?? cutoff) <= cutoff) sends = sends.filter((t) => t > cutoff);
  };

  const writeLoop = async (path: string): Promise<void> => {
    while (dirty) {
      dirty = false;
      prune();
      const content: SendsFile = { version: 1, budget: opts.budget, sends };
      try {
        await writeAtomic(path, `${JSON.stringify(content)}\n`);
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
    record(at) {
      sends.push(at);
      prune();
      schedule();
    },
    countBetween(fromExclusive, toExclusive) {
      let n = 0;
      for (const t of sends) if (t > fromExclusive && t < toExclusive) n++;
      return n;
    },
    async flush() {
      while (writing !== undefined) await writing;
    },
  };
}

function readInherited(path: string, budget: string, cutoff: number, logger: Logger): number[] {
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
  return parsed.sends.filter((t) => t > cutoff).sort((a, b) => a - b);
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
  if (!sends.every((t): t is number => typeof t === 'number' && Number.isFinite(t))) return undefined;
  return { version, budget, sends };
}

/** The state-store helper's technique, kept here because licensing/ does not import services/. */
async function writeAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
