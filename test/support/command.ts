/**
 * A command beside the app (`npm run backup`, `npm run import-old-records`) as the operator runs it:
 * its source under tsx in a child process, in `cwd` (where it reads `.env`), with a clean environment
 * (only PATH, HOME and what `env` gives reach its settings).
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface CommandOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `src/<entry>` (e.g. 'backup.ts') with `args`; resolves when it exits. */
export function runCommand(
  entry: string,
  cwd: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<CommandOutput> {
  return new Promise<CommandOutput>((done, fail) => {
    const child = spawn(TSX, [join(ROOT, 'src', entry), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
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
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
