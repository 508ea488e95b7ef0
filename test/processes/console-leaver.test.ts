/**
 * The local demo's leavers, end to end: `npm start` with nothing configured (the in-process sandbox,
 * the local Slack double, the console), the console deactivating a demo member who holds licenses
 * (the signed `user_change` event Slack would send), then reactivating them: #license-alerts says
 * their seats are on hold, then that the hold is cancelled, once each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_HOLDERS, DEMO_USERS } from '../../local/slack/demo.js';
import { consoleState } from '../support/console-state.js';
import { allText } from '../support/fixtures.js';
import { type MainProcess, runMain } from '../support/run-main.js';
import { until } from '../support/until.js';

const ALERTS = 'C0DEMOALRT';
const SOFIA = DEMO_HOLDERS.sofia;

describe('the local demo: a member deactivated and reactivated from the console', () => {
  let dir: string;
  let main: MainProcess;
  let base: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-demo-leavers-'));
    main = runMain({ PORT: '0', LOG_LEVEL: 'info', DATA_DIR: dir });
    const [, port] = await main.waitFor(/Local console \(plays Slack in your browser\): http:\/\/localhost:(\d+)\//);
    base = `http://localhost:${port}/`;
  }, 60_000);
  afterAll(async () => {
    main?.child.kill('SIGTERM');
    await main?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  const member = async (deleted: boolean) => {
    const res = await fetch(`${base}console/member`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: SOFIA, deleted }),
    });
    return (await res.json()) as { ok: boolean };
  };
  const posts = async (words: string) =>
    (await consoleState(base, DEMO_USERS.admin)).messages.filter(
      (m) => m.channel === ALERTS && !m.ephemeralFor && allText(m).includes(words),
    );

  it('deactivate: the seats are on hold in #license-alerts; reactivate: the hold is cancelled, each said once', async () => {
    expect(await member(true)).toEqual({ ok: true });
    await until(
      'the on-hold post',
      async () => (await posts(`<@${SOFIA}> left the workspace`)).length > 0,
      20_000,
      200,
    );
    expect(await posts(`<@${SOFIA}> left the workspace`)).toHaveLength(1);
    expect(await member(false)).toEqual({ ok: true });
    await until('the cancel post', async () => (await posts(`<@${SOFIA}> is back`)).length > 0, 20_000, 200);
    expect(await posts(`<@${SOFIA}> is back`)).toHaveLength(1);
    expect(await posts(`<@${SOFIA}> left the workspace`)).toHaveLength(1);
  }, 60_000);
});
