/**
 * A stop of the app started as README says and production does: `npm start`, in a process group of
 * its own. A signal to the group (systemd's default KillMode, a terminal's Ctrl+C) reaches npm and the
 * node process both, and npm forwards its copy to node, so node gets every signal twice. A change in
 * flight must still be applied once, audited and told, and the process exit 0 once drained; further
 * signals during the drain are logged and do not cut it short.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId } from '../../src/blocks/ids.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/types.js';
import { type FakeSlack, startFakeSlack, TEST_USERS } from '../support/fake-slack.js';
import {
  auditTableIn,
  buildDist,
  eventsUrlOf,
  localAppEnv,
  logLinesOf,
  type MainProcess,
  runMain,
} from '../support/run-main.js';
import { interactionBody, slackHeaders } from '../support/slack-signing.js';
import { until } from '../support/until.js';
import { textOf } from './change-support.js';

const SECRET = 'npm0start0signing0secret0for0tests';
const BOT = 'xoxb-npm-start';

let slack: FakeSlack;
let sandbox: RunningSandbox;
let dataDir: string;
let main: MainProcess | undefined;
let eventsUrl = '';
let seq = 0;

// What `npm start` does first when the sources changed; done here so the tests time the stop alone.
beforeAll(async () => {
  expect(await buildDist()).toBe(0);
}, 300_000);

beforeEach(async () => {
  slack = await startFakeSlack({ botToken: BOT });
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
  dataDir = mkdtempSync(join(tmpdir(), 'license-desk-npm-start-'));
});

afterEach(async () => {
  const pid = main?.child.pid;
  if (pid !== undefined) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
  await main?.exited;
  main = undefined;
  await sandbox.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function npmStart(): Promise<void> {
  main = runMain(
    localAppEnv(
      {
        slackApiUrl: slack.apiUrl,
        sandboxUrl: sandbox.url,
        sandboxToken: sandbox.adminToken,
        botToken: BOT,
        signingSecret: SECRET,
      },
      { LICENSE_ADMINS: TEST_USERS.admin, DATA_DIR: dataDir, SHUTDOWN_DRAIN_SECONDS: '20' },
    ),
    { npmStart: true },
  );
  eventsUrl = await eventsUrlOf(main, 60_000);
}

/** "Revoke now" under a confirmation message, as Slack sends the click. */
async function clickRevoke(licenseId: string, responseId: string): Promise<number> {
  const ts = `${Date.now() / 1000}`;
  const body = interactionBody({
    type: 'block_actions',
    user: { id: TEST_USERS.admin, username: 'dana.lee', name: 'dana.lee', team_id: 'T0ACME0001' },
    api_app_id: 'A0LICBOT01',
    token: 'qWeRtY1234567890AsDfGhJk',
    container: { type: 'message', message_ts: ts, channel_id: 'C0LICOPS01', is_ephemeral: true },
    trigger_id: `${Date.now()}.${++seq}.trigger`,
    team: { id: 'T0ACME0001', domain: 'acme-learning' },
    channel: { id: 'C0LICOPS01', name: 'license-ops' },
    state: { values: {} },
    response_url: slack.responseUrl(responseId),
    actions: [
      { action_id: ChangeActionId.revokeConfirm, block_id: 'b', type: 'button', value: licenseId, action_ts: ts },
    ],
  });
  const res = await fetch(eventsUrl, { method: 'POST', headers: slackHeaders(SECRET, body), body });
  await res.text();
  return res.status;
}

const logLines = () => logLinesOf(main);
const auditTable = () => auditTableIn(dataDir);
const deletes = (licenseId: string) =>
  sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${licenseId}`);
const signalGroup = (signal: NodeJS.Signals) => process.kill(-(main?.child.pid ?? 0), signal);

/** Starts a revoke whose DELETE the sandbox answers 4 s late, and waits until it is in flight. */
async function revokeInFlight(licenseId: string): Promise<void> {
  expect(sandbox.inspect.license(licenseId)?.active).toBe(true);
  sandbox.addFault({ kind: 'latency', latencyMs: 4_000, method: 'DELETE' });
  expect(await clickRevoke(licenseId, `revoke-${licenseId}`)).toBe(200);
  await until('the DELETE to be in flight', () => deletes(licenseId).some((r) => r.status === 0));
}

/** The revoke was applied once, audited, the admin told; npm (and so node) exited 0 after a full drain. */
async function expectDrained(licenseId: string): Promise<void> {
  expect(await main?.exited).toBe(0);
  expect(deletes(licenseId)).toHaveLength(1);
  expect(sandbox.inspect.license(licenseId)?.active).toBe(false);
  const entry = { action: 'revoke', outcome: 'done', licenseId, actor: TEST_USERS.admin };
  expect(auditTable()).toContainEqual(expect.objectContaining(entry));
  expect(logLines()).toContainEqual(expect.objectContaining({ message: 'audit', ...entry }));
  const told = slack.responses.filter((p) => p.id === `revoke-${licenseId}`).map((p) => textOf(p.body));
  expect(told.join('\n')).toContain(`Revoked license \`${licenseId}\``);
  expect(logLines()).toContainEqual(expect.objectContaining({ message: 'stopped', drained: true }));
}

const repeats = () => logLines().filter((l) => l.message === 'stopping: signal received again; the stop goes on');

describe('npm start, stopped by a signal to its process group', () => {
  it('SIGTERM while a revoke is in flight: applied once, audited, told, exit 0', async () => {
    await npmStart();
    await revokeInFlight('4005');
    signalGroup('SIGTERM');
    await expectDrained('4005');
    // npm's forwarded copy, when the kernel did not merge it with the direct one, was only logged.
    for (const line of repeats()) expect(line).toMatchObject({ signal: 'SIGTERM', stopping: 'SIGTERM' });
  }, 120_000);

  it('SIGINT (Ctrl+C), then a second and a third one during the drain: logged, the drain goes on, exit 0', async () => {
    await npmStart();
    await revokeInFlight('4006');
    signalGroup('SIGINT');
    await main?.waitFor(/"message":"stopping"/);
    // Each signal reaches node once or twice (npm forwards its copy; the kernel may merge the two).
    for (const nth of ['second', 'third']) {
      const before = repeats().length;
      signalGroup('SIGINT');
      await until(`the ${nth} signal to be logged`, () => repeats().length > before);
    }
    // The DELETE is still in flight: nothing was cut short.
    expect(deletes('4006').map((r) => r.status)).toEqual([0]);
    await expectDrained('4006');
    expect(repeats().length).toBeGreaterThanOrEqual(2);
    for (const line of repeats()) expect(line).toMatchObject({ signal: 'SIGINT', stopping: 'SIGINT' });
  }, 120_000);
});
