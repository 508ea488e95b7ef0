/**
 * `npm run import-old-records` as the operator runs it (src/import-old-records.ts in a child process):
 * a clean environment with only DATA_DIR (and what `env` adds), in a working directory of its own so
 * that a `.env` of the checkout never reaches it. Its log lines are JSON on stdout, its summary the
 * last lines of stdout (or the sentence on stderr).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON log lines of stdout, parsed. */
  logs: Record<string, unknown>[];
}

export function importOldRecords(dataDir: string, env: Record<string, string> = {}): Promise<CommandRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'license-desk-import-cwd-'));
  return new Promise<CommandRun>((done, fail) => {
    const child = spawn(TSX, [join(ROOT, 'src/import-old-records.ts')], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      const logs = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      done({ code, stdout, stderr, logs });
    });
  });
}
