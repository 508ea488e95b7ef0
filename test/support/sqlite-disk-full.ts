/**
 * Preloaded into a child running the app (runMain's `nodeArgs: ['--import', <this file>]`): the SQLite
 * driver's disk fills, as LICENSE_DESK_TEST_DISK_FULL says. Test support only; never imported by src/.
 *
 * - `grow`: every connection may not grow its file past the pages it has (SQLite's max_page_count),
 *   so the first write that needs a page fails with SQLITE_FULL, as on a full disk.
 * - `open`: setting the journal mode at open fails with SQLITE_FULL (the -wal file cannot be made).
 */
import { createRequire } from 'node:module';

type Pragma = (this: unknown, source: string, options?: { simple?: boolean }) => unknown;

const require = createRequire(import.meta.url);
const SQLite = require('better-sqlite3') as {
  prototype: { pragma: Pragma };
  SqliteError: new (m: string, c: string) => Error;
};
const mode = process.env.LICENSE_DESK_TEST_DISK_FULL;
const pragma = SQLite.prototype.pragma;

SQLite.prototype.pragma = function (this: unknown, source: string, options?: { simple?: boolean }) {
  if (mode === 'open' && /^journal_mode/i.test(source)) {
    throw new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL');
  }
  const out = pragma.call(this, source, options);
  if (mode === 'grow' && /^journal_mode/i.test(source)) {
    const pages = Math.max(1, Number(pragma.call(this, 'page_count', { simple: true })));
    pragma.call(this, `max_page_count = ${pages}`);
  }
  return out;
};
