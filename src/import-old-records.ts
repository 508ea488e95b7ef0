/**
 * `npm run import-old-records`: moves the files an earlier version kept in DATA_DIR (audit.jsonl,
 * requests.json, waitlist.json, bulk/, alerts.json) into the records once, each renamed aside
 * afterwards (docs/records.md, "Files of an earlier version"). Run it with License Desk stopped; the
 * next start takes on the bulk jobs it imported unfinished. DATA_DIR and DATABASE_URL are read and
 * checked as the app reads them (the environment, then .env in the working directory).
 */
import { importOldRecords, oldFilesIn } from './app/old-records.js';
import { readCommandStorage } from './kernel/config/config.js';
import { openRecords } from './kernel/db/open.js';
import { databaseUrlSecrets } from './kernel/db/url.js';
import { createLogger, createRedactor } from './kernel/slack/logger.js';

export interface ImportRun {
  /** 0: imported (or nothing to import); 1: a file could not be read or the records not opened. */
  code: 0 | 1;
  /** What to print, line by line (stdout when code is 0, stderr otherwise). */
  lines: string[];
}

/** The command's work, without the process: what main() below prints. */
export async function runImport(opts: {
  dataDir: string;
  databaseUrl?: string | undefined;
  now?: () => Date;
}): Promise<ImportRun> {
  // DATABASE_URL's password never reaches a line (an error from the database may quote the URL).
  const secrets = opts.databaseUrl ? databaseUrlSecrets(opts.databaseUrl) : [];
  const redact = createRedactor(secrets);
  const files = await oldFilesIn(opts.dataDir);
  if (files.length === 0)
    return { code: 0, lines: [`No files of an earlier version in ${opts.dataDir}: nothing to import.`] };
  const records = await openRecords({
    dataDir: opts.dataDir,
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  });
  // The importers' own log lines (what moved where) go to stdout, as the app's do.
  const logger = createLogger({ level: 'info', secrets });
  try {
    const done = await importOldRecords({
      records,
      dataDir: opts.dataDir,
      logger,
      ...(opts.now ? { now: opts.now } : {}),
    });
    return {
      code: 0,
      lines: [
        `Imported into the records (${records.where}): ${done.auditEntries} audit entries, ${done.requests} course requests (${done.waitlisted} on the waitlist), ${done.bulkJobs} bulk jobs${done.alertMemory ? ', the alert memory' : ''}.`,
        'The files were renamed aside (…imported-<time>, bulk.imported); the next start takes them on from the records.',
      ],
    };
  } catch (error) {
    return { code: 1, lines: [redact(`Not imported: ${error instanceof Error ? error.message : String(error)}`)] };
  } finally {
    await records.close();
  }
}

async function main(): Promise<number> {
  const config = readCommandStorage();
  if (!config.ok) {
    process.stderr.write(`${config.text}\n`);
    return 1;
  }
  const redact = createRedactor(config.databaseUrl ? databaseUrlSecrets(config.databaseUrl) : []);
  const result = await runImport({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }).catch(
    (error: unknown): ImportRun => ({
      code: 1,
      lines: [redact(`Not imported: ${error instanceof Error ? error.message : String(error)}`)],
    }),
  );
  (result.code === 0 ? process.stdout : process.stderr).write(`${result.lines.join('\n')}\n`);
  return result.code;
}

const invokedDirectly = process.argv[1] !== undefined && /import-old-records\.[jt]s$/.test(process.argv[1]);
if (invokedDirectly) process.exitCode = await main();
