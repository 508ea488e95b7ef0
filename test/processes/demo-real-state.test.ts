/**
 * The local demo accepts requests signed with a secret published in its source (local/slack/demo.ts), so
 * it must reach nothing real: the real process (src/main.ts) refuses to start against a licensing API
 * that is not a sandbox, or with REDIS_URL or DATABASE_URL, with one sentence saying what to set instead, and still
 * starts as the ordinary demo or on a sandbox of `npm run sandbox` given by URL on loopback.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { DEMO_SIGNING_SECRET } from '../../local/slack/demo.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { freshPostgresDatabase, postgresSkipReason } from '../support/postgres.js';
import { type MainProcess, type RunMainOptions, runMain } from '../support/run-main.js';

const LISTENING = /app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/;
const SLACK_FIX = 'Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app';

let main: MainProcess | undefined;
let sandbox: RunningSandbox | undefined;
let realApi: Server | undefined;

afterEach(async () => {
  main?.child.kill('SIGKILL');
  await main?.exited;
  main = undefined;
  await new Promise((resolve) => (realApi ? realApi.close(resolve) : resolve(undefined)));
  realApi = undefined;
  await sandbox?.close();
  sandbox = undefined;
});

/**
 * A licensing API that is not a sandbox, on loopback (a tunnel or proxy to the real one): the sandbox
 * behind a proxy that drops its x-licensing-sandbox header. Records what reached it.
 */
async function startRealApi(): Promise<{
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
}> {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
  const target = new URL(sandbox.url);
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  realApi = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const { 'x-licensing-sandbox': _marker, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => realApi?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(realApi.address() as AddressInfo).port}`, seen };
}

async function refused(env: Record<string, string>, options: RunMainOptions = {}): Promise<string> {
  main = runMain({ PORT: '0', ...env }, options);
  expect(await main.exited).toBe(1);
  const { stdout, stderr } = main.output();
  expect(stdout).not.toContain('License Desk started');
  expect(stdout).not.toContain('LOCAL DEMO MODE');
  return stderr;
}

describe('the local demo refuses real state', () => {
  it('LICENSING_API_URL of a service elsewhere: refused before anything starts, saying what to set', async () => {
    const stderr = await refused({
      LICENSING_API_URL: 'https://licensing.example.com/api/licensing',
      LICENSING_API_TOKEN: 'S3KR1T-real-licensing-token',
    });
    expect(stderr).toContain('License Desk cannot start: 1 configuration problem.');
    expect(stderr).toContain('LICENSING_API_URL cannot be used by the local demo');
    expect(stderr).toContain(SLACK_FIX);
    expect(stderr).toContain('or unset LICENSING_API_URL and LICENSING_API_TOKEN');
    expect(stderr).not.toContain('S3KR1T');
  });

  it('LICENSING_API_URL on loopback that is no sandbox: refused after one tokenless probe, nothing changed', async () => {
    const api = await startRealApi();
    const stderr = await refused({ LICENSING_API_URL: api.url, LICENSING_API_TOKEN: sandbox?.adminToken ?? '' });
    expect(stderr).toContain(
      'License Desk could not start: LICENSING_API_URL did not answer as a licensing sandbox (no x-licensing-sandbox: 1 header)',
    );
    expect(stderr).toContain('start npm run sandbox at that URL, unset LICENSING_API_URL and LICENSING_API_TOKEN');
    expect(stderr).toContain('or set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app');
    // Only the probe reached it, without the token; no write.
    expect(api.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/me']);
    expect(api.seen[0]?.headers.authorization).toBeUndefined();
    expect(sandbox?.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('LICENSING_API_URL on loopback where nothing answers: refused, saying it could not check', async () => {
    const stderr = await refused({ LICENSING_API_URL: 'http://127.0.0.1:9', LICENSING_API_TOKEN: 'token-0123456789' });
    expect(stderr).toContain(
      'License Desk could not start: LICENSING_API_URL could not be reached to check that it is a licensing sandbox',
    );
  });

  it('REDIS_URL, with or without CONSOLE=1: refused, saying what to set', async () => {
    for (const extra of [{}, { CONSOLE: '1' }]) {
      const stderr = await refused({ REDIS_URL: 'redis://:S3KR1Tpw@127.0.0.1:6390', ...extra });
      expect(stderr).toContain('License Desk cannot start: 1 configuration problem.');
      expect(stderr).toContain(
        'REDIS_URL cannot be used by the local demo: with no SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET the app is the local demo, which accepts requests signed with a secret published in its source',
      );
      expect(stderr).toContain(`${SLACK_FIX}, or unset REDIS_URL`);
      expect(stderr).not.toContain('S3KR1T');
    }
  });

  it.skipIf(postgresSkipReason() !== undefined)(
    'DATABASE_URL, with or without CONSOLE=1: refused, saying what to set, and nothing is written to that database',
    async () => {
      const url = new URL(await freshPostgresDatabase());
      url.password = 'S3KR1Tpgpw';
      // As production starts it (npm start), and with the console asked for.
      for (const [extra, options] of [
        [{}, { npmStart: true }],
        [{ CONSOLE: '1' }, {}],
      ] as const) {
        const stderr = await refused({ DATABASE_URL: url.toString(), ...extra }, options);
        expect(stderr).toContain('License Desk cannot start: 1 configuration problem.');
        expect(stderr).toContain(
          'DATABASE_URL cannot be used by the local demo: with no SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET the app is the local demo, which accepts requests signed with a secret published in its source, so anyone on this machine could read and change the records in that database',
        );
        expect(stderr).toContain(`${SLACK_FIX}, or unset DATABASE_URL`);
        expect(stderr).not.toContain('S3KR1T');
      }
      // Not a table was made, not a row written: the demo never connected.
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const tables = await client.query(
          "select table_name from information_schema.tables where table_schema = 'public'",
        );
        expect(tables.rows).toEqual([]);
      } finally {
        await client.end();
      }
    },
    40_000,
  );

  it("SLACK_SIGNING_SECRET set to the demo's published secret: refused", async () => {
    const stderr = await refused({ SLACK_BOT_TOKEN: TEST_BOT_TOKEN, SLACK_SIGNING_SECRET: DEMO_SIGNING_SECRET });
    expect(stderr).toContain("SLACK_SIGNING_SECRET is the local demo's published secret");
  });
});

describe('the local demo still starts on stand-ins', () => {
  it('with nothing configured', async () => {
    main = runMain({ PORT: '0' });
    await main.waitFor(LISTENING);
    expect(main.output().stdout).toContain('in-process SANDBOX');
  });

  it('on a sandbox of npm run sandbox given by URL on loopback: proven before start, marked from the first reply', async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
    main = runMain({ PORT: '0', LICENSING_API_URL: sandbox.url, LICENSING_API_TOKEN: sandbox.adminToken });
    const [, port] = await main.waitFor(LISTENING);
    expect(main.output().stdout).toContain('Licensing data comes from a licensing SANDBOX at LICENSING_API_URL');
    expect(await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()).toMatchObject({ sandbox: true });
  });
});
