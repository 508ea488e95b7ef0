/**
 * The audit trail of older versions, DATA_DIR/audit.jsonl and its rotated siblings (audit.1.jsonl …
 * audit.4.jsonl, the highest the oldest), moved into the audit table once (docs/records.md, "The
 * audit trail"): at a start that finds them, every entry goes in, oldest first, in one transaction;
 * then each file is renamed aside (audit.jsonl.imported-<time>) so the next start finds none. Each
 * replica imports its own DATA_DIR's files into the shared table.
 *
 * A line that is not an entry stops the import: nothing of it is kept, the files stay where they
 * are, and the import fails with one sentence naming the file, the line and what to do.
 */
import { readdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { type AuditFacts, appendAuditMany } from '../../kernel/db/audit.js';
import { DatabaseProblem, type Records } from '../../kernel/db/open.js';
import { asAuditRecord } from '../../kernel/domain/audit-entry.js';
import type { Logger } from '../../kernel/licensing/types.js';

export const AUDIT_FILE = 'audit.jsonl';

/** audit.jsonl, audit.1.jsonl, audit.2.jsonl, …: index 0 is the file written last. */
export function auditFileAt(path: string, index: number): string {
  if (index === 0) return path;
  const ext = extname(path);
  return join(dirname(path), `${basename(path, ext)}.${index}${ext}`);
}

/** The audit files in `dataDir`, oldest first (the highest rotation index first, audit.jsonl last). */
export async function auditFilesIn(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dataDir);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
  const ext = extname(AUDIT_FILE);
  const stem = basename(AUDIT_FILE, ext);
  const indexed = names.flatMap((name) => {
    if (name === AUDIT_FILE) return [{ name, index: 0 }];
    const m = new RegExp(`^${stem}\\.(\\d+)\\${ext}$`).exec(name);
    return m ? [{ name, index: Number(m[1]) }] : [];
  });
  return indexed.sort((a, b) => b.index - a.index).map((f) => join(dataDir, f.name));
}

export interface ImportedFile {
  file: string;
  entries: number;
  /** Where the file was moved to. */
  movedTo: string;
}

/** The entries of one file, in order; a line that is not one throws the sentence for the operator. */
function entriesOf(file: string, content: string): AuditFacts[] {
  const entries: AuditFacts[] = [];
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    let value: unknown;
    let why = 'it is not valid JSON';
    try {
      value = JSON.parse(line);
      why = 'it is not an audit entry (an object with at, actor, action and outcome)';
    } catch {
      value = undefined;
    }
    const entry = asAuditRecord(value);
    if (!entry) {
      throw new DatabaseProblem(
        `The audit file ${file} cannot be imported into the database: line ${i + 1} is not an entry (${why}); nothing was imported, so delete or fix that line (or move the file out of DATA_DIR to leave its entries out) and run npm run import-old-records again`,
      );
    }
    entries.push(entry);
  }
  return entries;
}

/**
 * Imports the audit files of `dataDir` into the audit table and moves them aside; nothing to do
 * when there are none. Throws a DatabaseProblem (the import stops) on a line that is not an entry.
 */
export async function importAuditFiles(opts: {
  records: Pick<Records, 'db'>;
  dataDir: string;
  logger: Logger;
  now?: () => Date;
}): Promise<ImportedFile[]> {
  const files = await auditFilesIn(opts.dataDir);
  if (files.length === 0) return [];
  const read: { file: string; entries: AuditFacts[] }[] = [];
  for (const file of files) read.push({ file, entries: entriesOf(file, await readFile(file, 'utf8')) });
  await opts.records.db.transaction().execute(async (trx) => {
    for (const { entries } of read) await appendAuditMany(trx, entries);
  });
  const stamp = (opts.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const imported: ImportedFile[] = [];
  for (const { file, entries } of read) {
    const movedTo = `${file}.imported-${stamp}`;
    try {
      await rename(file, movedTo);
    } catch (error) {
      throw new DatabaseProblem(
        `The entries of the audit file ${file} were imported into the database, but the file could not be moved aside (${error instanceof Error ? error.message : String(error)}): rename it (e.g. to ${basename(movedTo)}) before the next import, or its entries are imported twice`,
      );
    }
    imported.push({ file, entries: entries.length, movedTo });
  }
  opts.logger.info('audit: the audit files were imported into the database and moved aside', {
    files: imported.map((f) => ({ file: f.file, entries: f.entries, movedTo: f.movedTo })),
    entries: imported.reduce((n, f) => n + f.entries, 0),
  });
  return imported;
}
