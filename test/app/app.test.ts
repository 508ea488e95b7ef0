import { describe, expect, it } from 'vitest';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { commandBody } from '../support/slack-signing.js';

describe('the app over HTTP', () => {
  const t = appPerFile('app-', () => startTestApp());

  it('answers GET /healthz with ok and the sandbox flag', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ ok: true, sandbox: true });
  });

  it('checked the bot token once at start-up, with the bot token', () => {
    const authTests = t.slack.calls.filter((c) => c.method === 'auth.test');
    expect(authTests).toHaveLength(1);
    expect(authTests[0]?.token).toBe('xoxb-e2etest');
  });

  it('refuses a bad signature with 401 and calls no licensing API', async () => {
    t.sandbox.clearRequests();
    const body = commandBody({ command: '/licenses', text: 'pools', user_id: 'U0MGR00001', team_id: 'T0ACME0001' });
    const res = await t.send(body, { signature: `v0=${'0'.repeat(64)}` });
    expect(res.status).toBe(401);
    expect(res.body).toBe('');
    const missing = await t.send(body, { signature: '' });
    expect(missing.status).toBe(401);
    await t.settled();
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it('refuses a timestamp older than five minutes with 401 and calls no licensing API', async () => {
    t.sandbox.clearRequests();
    const body = commandBody({ command: '/licenses', text: 'pools', user_id: 'U0MGR00001', team_id: 'T0ACME0001' });
    const res = await t.send(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(res.status).toBe(401);
    await t.settled();
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it('answers url_verification with the challenge', async () => {
    const res = await t.event({ type: 'url_verification', token: 'x', challenge: 'c-123' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ challenge: 'c-123' });
  });

  it('acks events such as app_home_opened', async () => {
    const res = await t.event({ type: 'app_home_opened', user: 'U0MGR00001', channel: 'D0LICDM001', tab: 'home' });
    expect(res.status).toBe(200);
  });

  it('refuses a user with no role politely, says who to ask, and reads no licensing data', async () => {
    t.sandbox.clearRequests();
    const r = await t.command('pools', { userId: TEST_USERS.nobody });
    expect(r.status).toBe(200);
    const post = await r.waitForResponse();
    expect(String(post.body.text)).toContain('<@U0MGR00001>');
    expect(JSON.stringify(post.body)).not.toMatch(/@contoso\.com|@fabrikam\.com/);
    await t.settled();
    expect(t.sandbox.requests).toHaveLength(0);
  });

  it('turns a listener crash into one polite sentence and one structured log line', async () => {
    t.app.command('/boom', async ({ ack }) => {
      await ack();
      throw new Error('kaboom at internal/secret/path.ts:12 with xoxb-e2etest');
    });
    const r = await t.command('x', { command: '/boom' });
    expect(r.status).toBe(200);
    const post = await r.waitForResponse();
    const text = String(post.body.text);
    expect(text).toMatch(/^Sorry, something went wrong/);
    expect(text).toContain('<@U0MGR00001>');
    expect(text).not.toMatch(/kaboom|xoxb|\.ts:|at /);
    expect(post.body.response_type).toBe('ephemeral');
    const line = t.logs.find((l) => l.message === 'listener failed');
    expect(line).toMatchObject({ level: 'error', kind: 'command', command: '/boom', user: 'U0MGR00001' });
    expect(JSON.stringify(t.logs)).not.toContain('xoxb-e2etest');
  });

  it('answers a listener crash before ack with 500 at once, not a 3 s timeout', async () => {
    t.app.command('/boom-early', async () => {
      throw new Error('before ack');
    });
    const r = await t.command('x', { command: '/boom-early' });
    expect(r.status).toBe(500);
    expect(r.ackMs).toBeLessThan(2000);
  });
});
