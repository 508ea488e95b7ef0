import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `npm run sandbox`'s entry point (tsx local/sandbox/cli.ts) and resolves with its first lines. */
function startCli(env: Record<string, string>): Promise<string> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'local/sandbox/cli.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    proc.on('exit', (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
  });
}

describe('npm run sandbox', () => {
  it('prints the URL and both tokens, serves them, and stops cleanly on SIGTERM', async () => {
    const out = await startCli({
      SANDBOX_PORT: '0',
      SANDBOX_ADMIN_TOKEN: 'cli-admin',
      SANDBOX_READONLY_TOKEN: 'cli-reader',
      SANDBOX_RATE_LIMIT: '7',
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(out).toContain('cli-admin');
    expect(out).toContain('cli-reader');
    expect(out).toContain('7 per 60000 ms');
    const pools = await fetch(`${url}/v1/pools`, { headers: { authorization: 'Bearer cli-admin' } });
    expect(pools.status).toBe(200);
    expect(((await pools.json()) as unknown[]).length).toBeGreaterThanOrEqual(6);
    const write = await fetch(`${url}/v1/license/4001`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer cli-reader' },
    });
    expect(write.status).toBe(403);
    await write.text();
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a bad setting with a message and a non-zero exit', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'local/sandbox/cli.ts'], {
      env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_RATE_ALGORITHM: 'leaky-bucket' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let err = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('SANDBOX_RATE_ALGORITHM');
  });
});
