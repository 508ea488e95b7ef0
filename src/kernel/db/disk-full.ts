/**
 * A full disk, told as one: SQLite's SQLITE_FULL ("database or disk is full"), the system's ENOSPC, and
 * PostgreSQL's disk_full (53100), wherever they sit in an error's chain of causes. Every place that
 * turns a database failure into a sentence asks here first, so a full disk is never reported as a
 * damaged database, a failed rollback or "something went wrong".
 */
const CODES = new Set(['SQLITE_FULL', 'ENOSPC', '53100']);

export function isDiskFull(error: unknown): boolean {
  const seen = new Set<unknown>();
  let e: unknown = error;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /database or disk is full|no space left on device/i.test(message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The operator's sentence: which disk, what to do; `where` names the database (never its password). */
export function diskFullSentence(where: string): string {
  return `The disk is full: the database ${where} cannot grow. Free some room on that disk (or give it more), then start License Desk again; the records written before are kept`;
}

/** What a person is told when a change could not be recorded because the disk is full. */
export const DISK_FULL_SENTENCE =
  'License Desk could not save this because the disk that holds its records is full, so nothing was sent and nothing was changed. Tell whoever runs License Desk to free some room on it, then try again.';
