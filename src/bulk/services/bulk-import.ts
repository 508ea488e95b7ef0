/**
 * The bulk jobs an earlier License Desk kept as files (DATA_DIR/bulk: one `bulk-<id>.json` per job,
 * written whole at its start, pause and end, and beside it a journal `bulk-<id>.rows`, one JSON line
 * `{"rows":[...]}` appended per row change) are imported into the database once, by npm run
 * import-old-records: each job with its journal applied, unfinished ones held by nobody so that the runner takes
 * them on (a row left 'sending' is read back, as after any restart). The directory is then renamed
 * to `bulk.imported` so that nothing is imported twice; a job already in the database (an import that
 * stopped between the writes and the rename) is left as it is.
 *
 * A job file that cannot be read stops the import with one sentence naming it: its rows would
 * otherwise never be sent, and nobody would know.
 */
import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../kernel/licensing/types.js';
import { applyRows, type BulkJob, type BulkJobStore, isJob, type JobRow } from '../db/store.js';

export const BULK_FILES_DIR = 'bulk';
export const IMPORTED_SUFFIX = '.imported';

const FILE = /^bulk-(.+)\.json$/;

const reason = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** The journal's rows; a line cut short by a crash held rows that were never flushed: their last state stands. */
function journalRows(text: string): JobRow[] {
  const rows: JobRow[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      rows.push(...(JSON.parse(line) as { rows: JobRow[] }).rows);
    } catch {
      // torn last line
    }
  }
  return rows;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A free name beside `dir` for the imported files: bulk.imported, or bulk.imported-<time> if taken. */
async function asideName(dir: string, now: Date): Promise<string> {
  const first = `${dir}${IMPORTED_SUFFIX}`;
  const exists = await readdir(first).then(
    () => true,
    () => false,
  );
  return exists ? `${first}-${now.toISOString().replace(/[:.]/g, '-')}` : first;
}

export interface ImportResult {
  jobs: number;
  unfinished: number;
  /** Where the files went; undefined when there was nothing to import. */
  movedTo?: string;
}

/**
 * Imports DATA_DIR/bulk into the store and moves the directory aside. Throws (one sentence) when a
 * job file cannot be read; nothing is imported then, and nothing moved.
 */
export async function importBulkFiles(
  dataDir: string,
  store: Pick<BulkJobStore, 'adopt'>,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<ImportResult> {
  const dir = join(dataDir, BULK_FILES_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((f) => FILE.test(f)).sort();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { jobs: 0, unfinished: 0 };
    throw new Error(
      `The bulk job directory ${dir} cannot be read (${reason(error)}): check that this user may read it`,
    );
  }
  // Every file is read and checked before any is imported: a bad one stops the import with nothing half done.
  const jobs: BulkJob[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new Error(unreadable(path, dir, reason(error)));
    }
    if (!isJob(value)) throw new Error(unreadable(path, dir, 'not a bulk job'));
    const journal = await readOptional(join(dir, name.replace(/\.json$/, '.rows')));
    if (journal) applyRows(value, journalRows(journal));
    jobs.push(value);
  }
  // An empty directory (a DATA_DIR that never ran a job) stays as it is.
  if (names.length === 0 && (await readdir(dir)).length === 0) return { jobs: 0, unfinished: 0 };
  let added = 0;
  for (const job of jobs) if (await store.adopt(job)) added++;
  const movedTo = await asideName(dir, now());
  await rename(dir, movedTo);
  const unfinished = jobs.filter((j) => j.state === 'running').length;
  logger.info('bulk job files imported into the database; the files were moved aside', {
    jobs: jobs.length,
    added,
    unfinished,
    movedTo,
  });
  return { jobs: jobs.length, unfinished, movedTo };
}

function unreadable(path: string, dir: string, why: string): string {
  return `The bulk job file ${path} cannot be read (${why}), so it cannot be moved into the database: restore it from a backup, or move it out of ${dir} to drop that job (look its students up with /licenses before sending them again), then run npm run import-old-records again`;
}
