/**
 * A newcomer's first minutes, as processes: `npm start` (src/main.ts) with `.env`, on a port already
 * taken, pointed at a standalone sandbox by URL; and `npm run try` (local/try/try.ts) against the local demo,
 * forms and `find @name` included.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import { type MainProcess, runMain } from '../support/run-main.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TSX_LOADER = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const LISTENING = /app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/;

/** `npm run try -- <args>` against the app on `port`; resolves when try exits, with what it printed. */
function runTry(port: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'license-desk-try-'));
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(root, 'local/try/try.ts'), ...args], {
    cwd,
    env: { PORT: port, PATH: process.env.PATH ?? '' },
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    }),
  );
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'license-desk-first-'));
}

describe('npm start reads .env', () => {
  it('loads it, says so by name, and lets the environment win', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.env'), 'PORT=0\nLOG_LEVEL=debug\nHOME_BUDGET_SHARE=0.5\n');
    const main = runMain({ LOG_LEVEL: 'info' }, { cwd });
    try {
      await main.waitFor(LISTENING);
      const { stdout } = main.output();
      const line = stdout.split('\n').find((l) => l.includes('settings loaded from .env'));
      expect(line).toBeDefined();
      const fields = JSON.parse(line ?? '{}') as { set: string[]; keptFromEnvironment: string[] };
      expect([...fields.set].sort()).toEqual(['HOME_BUDGET_SHARE', 'PORT']);
      expect(fields.keptFromEnvironment).toEqual(['LOG_LEVEL']);
      // LOG_LEVEL=info from the environment, not debug from the file.
      expect(stdout).not.toContain('"level":"debug"');
    } finally {
      main.child.kill('SIGKILL');
      await main.exited;
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('names .env when its settings are wrong, and never shows a secret from it', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.env'), 'LICENSING_API_TOKEN=dotenv-S3KR1T-token\n');
    const main = runMain({ PORT: '0' }, { cwd });
    try {
      expect(await main.exited).toBe(1);
      const { stdout, stderr } = main.output();
      expect(stderr).toContain('LICENSING_API_URL is missing');
      expect(stderr).toContain(`Settings were read from the environment and from ${join(cwd, '.env')}.`);
      expect(stdout + stderr).not.toContain('S3KR1T');
    } finally {
      // Were .env ignored, the demo would start and keep running.
      main.child.kill('SIGKILL');
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('npm start on a port already in use', () => {
  it('exits 1 naming the port and PORT', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const main = runMain({ PORT: String(port) });
      try {
        expect(await main.exited).toBe(1);
        expect(main.output().stderr).toContain(
          `Port ${port} is already in use: stop the other process (another License Desk?) or set PORT to a free port`,
        );
        // The one problem, not a second warning about stopping an app that never started.
        expect(main.output().stdout).not.toContain('could not close');
      } finally {
        main.child.kill('SIGKILL');
      }
    } finally {
      blocker.close();
    }
  });
});

describe('the app pointed at a standalone sandbox by URL', () => {
  it('knows it is a sandbox: the start-up line, the banner, /healthz and every reply say so', async () => {
    const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    const main = runMain({ PORT: '0', LICENSING_API_URL: sandbox.url, LICENSING_API_TOKEN: sandbox.adminToken });
    try {
      const [, port = ''] = await main.waitFor(LISTENING);
      const { stdout } = main.output();
      expect(stdout).toContain('"licensing":"sandbox (LICENSING_API_URL)"');
      expect(stdout).toContain('Licensing data comes from a licensing SANDBOX at LICENSING_API_URL');
      expect(stdout).not.toContain('REAL licensing API');
      expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({ sandbox: true });
      const tried = await runTry(port, ['pools']);
      expect(tried.code).toBe(0);
      expect(tried.stdout).toContain('Sandbox data — not real licenses');
    } finally {
      main.child.kill('SIGKILL');
      await main.exited;
      await sandbox.close();
    }
  });
});

describe('npm run try against the local demo', () => {
  let main: MainProcess;
  let port = '';

  beforeAll(async () => {
    main = runMain({ PORT: '0' });
    [, port = ''] = await main.waitFor(LISTENING);
  });
  afterAll(async () => {
    main.child.kill('SIGKILL');
    await main.exited;
  });

  it("on a port other than 3000, the start banner's try lines carry PORT, so they work as pasted", async () => {
    await main.waitFor(/a member with no role/);
    const lines = main
      .output()
      .stdout.split('\n')
      .filter((l) => l.includes('npm run try --'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.trim().startsWith(`PORT=${port} npm run try -- `)).toBe(true);
    const pasted = lines[0]?.trim().replace(/^PORT=\d+ npm run try -- /, '') ?? '';
    const { code, stdout } = await runTry(port, pasted.split(/\s+/));
    expect(code).toBe(0);
    expect(stdout).toContain('ack: HTTP 200');
  });

  it('prints an answer as readable text: help lists every command with its placeholders', async () => {
    const { code, stdout } = await runTry(port, ['help']);
    expect(code).toBe(0);
    expect(stdout).toContain('LICENSE DESK: /LICENSES');
    expect(stdout).toContain('/licenses pool <poolId> [all]');
    expect(stdout).toContain('/licenses revoke <licenseId>');
    expect(stdout).not.toMatch(/&lt;|&gt;/);
  });

  it('prints mrkdwn as terminal text: no *bold* markers or :emoji: codes; --json keeps the payload raw', async () => {
    const { code, stdout } = await runTry(port, ['pools']);
    expect(code).toBe(0);
    expect(stdout).toContain('Mastering DAX  ·  pool `2001`');
    expect(stdout).not.toMatch(/\*Mastering DAX\*|\*\d+\* of \d+ available/);
    expect(stdout).not.toMatch(/:(repeat|lock|test_tube|red_circle|hourglass_flowing_sand):/);
    expect(stdout).toContain('🔁 Transferable');
    const raw = await runTry(port, ['--json', 'pools']);
    expect(raw.stdout).toContain(':repeat: Transferable');
    expect(raw.stdout).toContain('*Mastering DAX*');
  });

  it('shows the assign form the app opened, and stops once it is there', async () => {
    const { code, stdout, stderr } = await runTry(port, ['assign', '2001']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('modal opened');
    expect(stdout).toContain('modal updated');
    expect(stdout).toMatch(/┌─ Assign a license/);
    expect(stdout).toContain('[Assign]');
    expect(stdout).not.toContain('No answer arrived');
  });

  it('find @name: the demo member is sent as Slack sends a mention, and the student is found', async () => {
    const { code, stdout } = await runTry(port, ['find', '@alberto.rossi']);
    expect(code).toBe(0);
    expect(stdout).toContain('Slack sends the text as: find <@U0DEMOSTU1|alberto.rossi>');
    expect(stdout).toContain('STUDENT · ALBERTO ROSSI');
  });

  it('find @someone Slack does not know says how to name the person instead', async () => {
    const { stdout } = await runTry(port, ['find', '@nobody.here']);
    expect(stdout).toContain('pick the person from the list Slack suggests as you type @, or give their e-mail');
  });

  it('pools 2 says there is no page 2', async () => {
    const { stdout } = await runTry(port, ['pools', '2']);
    expect(stdout).toContain('There is no page 2: the list has 1 page.');
  });
});
