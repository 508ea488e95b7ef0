/**
 * Small JSON files under DATA_DIR (alert memory): each write goes to a temporary file in
 * the same directory, is flushed, then renamed over the old one, so a crash leaves either the old or
 * the new content, never half of it. Writes to one file are serialised in call order. One process
 * owns a DATA_DIR: several replicas share their state through Redis instead (shared-store.ts,
 * docs/deployment.md).
 */
import { mkdir, readFile, rename } from 'node:fs/promises';
import { writeFileAtomic } from '../licensing/atomic-file.js';
import type { Logger } from '../licensing/types.js';

export async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
}

/** Writes `text` to `path` atomically (temporary file, fsync, rename). */
export { writeFileAtomic };

/** The parsed file, or undefined when it does not exist. A file that is not JSON is an error. */
export async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface JsonFile<T> {
  /** The current value (loaded once, then kept in memory). */
  read(): Promise<T>;
  /** Applies `change` to a copy of the value and persists it before resolving. */
  update(change: (value: T) => void): Promise<T>;
}

export interface JsonFileOptions<T> {
  path: string;
  /** The value when the file does not exist yet. */
  empty: () => T;
  /** Checks what was read; returns undefined when it is not a T. */
  parse: (value: unknown) => T | undefined;
  logger: Logger;
}

/**
 * A file that is unreadable or not what we wrote is moved aside (…corrupt-<time>.json) and the value
 * starts empty, with a warning: alert memory lost that way repeats an alert, which is better than
 * the app not starting.
 */
export function createJsonFile<T>(opts: JsonFileOptions<T>): JsonFile<T> {
  let value: T | undefined;
  let chain: Promise<unknown> = Promise.resolve();

  async function load(): Promise<T> {
    if (value !== undefined) return value;
    let raw: unknown;
    try {
      raw = await readJson(opts.path);
    } catch (error) {
      raw = { unreadable: String(error) };
    }
    const parsed = raw === undefined ? opts.empty() : opts.parse(raw);
    if (parsed === undefined) {
      const aside = `${opts.path.replace(/\.json$/, '')}.corrupt-${Date.now()}.json`;
      opts.logger.warn('state file unreadable; moved aside, starting empty', { path: opts.path, aside });
      await rename(opts.path, aside).catch(() => undefined);
    }
    value = parsed ?? opts.empty();
    return value;
  }

  return {
    read: () => {
      const next = chain.then(load);
      chain = next.catch(() => undefined);
      return next;
    },
    update(change) {
      const next = chain.then(async () => {
        const copy = structuredClone(await load());
        change(copy);
        await writeFileAtomic(opts.path, `${JSON.stringify(copy, null, 1)}\n`);
        value = copy;
        return copy;
      });
      chain = next.catch(() => undefined);
      return next;
    },
  };
}
