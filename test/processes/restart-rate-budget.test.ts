/**
 * The real main.ts restarted on the same DATA_DIR: the new process starts with the slots of the
 * requests its predecessor sent in the last minute (the licensing service still counts them), so it
 * does not spend them a second time. The licensing API is a sandbox with a fixed token, as a real
 * service would keep its token across a restart.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../local/sandbox/index.js';
import { DEMO_SIGNING_SECRET, DEMO_USERS } from '../../local/slack/demo.js';
import { runMain } from '../support/run-main.js';
import { commandBody, slackHeaders } from '../support/slack-signing.js';

let sandbox: RunningSandbox;
let dataDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 25, windowMs: 60_000 } });
  dataDir = await mkdtemp(join(tmpdir(), 'license-desk-restart-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function start() {
  return runMain({
    PORT: '0',
    LICENSING_API_URL: sandbox.url,
    LICENSING_API_TOKEN: sandbox.adminToken,
    LICENSING_CACHE_TTL_SECONDS: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'debug',
  });
}

describe('a restart of the app', () => {
  it("starts with its predecessor's recent licensing requests holding their slots", async () => {
    const first = start();
    try {
      const [, port] = await first.waitFor(/app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/);
      const body = commandBody({
        team_id: 'T0LOCAL001',
        channel_id: 'C0LOCAL001',
        user_id: DEMO_USERS.admin,
        user_name: 'demo.admin',
        command: '/licenses',
        text: 'pools',
        response_url: `http://127.0.0.1:${port}/nowhere`,
        trigger_id: '1.0.restart',
      });
      const ack = await fetch(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        headers: slackHeaders(DEMO_SIGNING_SECRET, body),
        body,
      });
      expect(ack.status).toBe(200);
      await first.waitFor(/"message":"licensing request"/);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
    // The start-up check that the service is a sandbox carries no token: it spends no rate budget.
    const sent = sandbox.requests.filter((r) => r.tokenKind !== 'none').length;
    expect(sent).toBeGreaterThanOrEqual(1);
    const saved = JSON.parse(await readFile(join(dataDir, 'licensing-sends.json'), 'utf8'));
    expect(saved.sends).toHaveLength(sent);
    // Never the token itself.
    expect(JSON.stringify(saved)).not.toContain(sandbox.adminToken);

    const second = start();
    try {
      const [line] = await second.waitFor(/\{[^\n]*holding the slots of requests sent before the restart[^\n]*\}/);
      expect(JSON.parse(line)).toMatchObject({ inherited: sent, limit: 25 });
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      second.child.kill('SIGKILL');
    }
  });
});
