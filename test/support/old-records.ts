/**
 * `npm run import-old-records` as the operator runs it (src/import-old-records.ts in a child process,
 * test/support/command.ts): DATA_DIR (and what `env` adds) only, in a working directory of its own so
 * that a `.env` of the checkout never reaches it. Its log lines are JSON on stdout, its summary the
 * last lines of stdout (or the sentence on stderr).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandOutput, runCommand } from './command.js';

export interface CommandRun extends CommandOutput {
  /** The JSON log lines of stdout, parsed. */
  logs: Record<string, unknown>[];
}

export async function importOldRecords(dataDir: string, env: Record<string, string> = {}): Promise<CommandRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'license-desk-import-cwd-'));
  try {
    const run = await runCommand('import-old-records.ts', cwd, { DATA_DIR: dataDir, ...env });
    const logs = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { ...run, logs };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
