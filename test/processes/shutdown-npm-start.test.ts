/**
 * A stop of the app started as README says and production does: `npm start`, in a process group of
 * its own. A signal to the group (systemd's default KillMode, a terminal's Ctrl+C) reaches npm and the
 * node process both, and npm forwards its copy to node, so node gets every signal twice. A change in
 * flight must still be applied once, audited and told, and the process exit 0 once drained; further
 * signals during the drain are logged and do not cut it short.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { textOf } from '../support/change-flow.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { mainRig } from '../support/main-rig.js';
import { auditTableIn, buildDist, eventsUrlOf, logLinesOf } from '../support/run-main.js';
import { interactionBody, slackHeaders } from '../support/slack-signing.js';
import { until } from '../support/until.js';

const SECRET = 'npm0start0signing0secret0for0tests';
const BOT = 'xoxb-npm-start';

let eventsUrl = '';
let seq = 0;

// What `npm start` does first when the sources changed; done here so the tests time the stop alone.
beforeAll(async () => {
  expect(await buildDist()).toBe(0);
}, 300_000);

const rig = mainRig({ name: 'npm-start', secret: SECRET, botToken: BOT });

async function npmStart(): Promise<void> {
  const main = rig.start({ SHUTDOWN_DRAIN_SECONDS: '20' }, { npmStart: true });
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
    response_url: rig.slack.responseUrl(responseId),
    actions: [
      { action_id: ChangeActionId.revokeConfirm, block_id: 'b', type: 'button', value: licenseId, action_ts: ts },
    ],
  });
  const res = await fetch(eventsUrl, { method: 'POST', headers: slackHeaders(SECRET, body), body });
  await res.text();
  return res.status;
}

const logLines = () => logLinesOf(rig.main);
const auditTable = () => auditTableIn(rig.dataDir);
const deletes = (licenseId: string) =>
  rig.sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${licenseId}`);
const signalGroup = (signal: NodeJS.Signals) => process.kill(-(rig.main?.child.pid ?? 0), signal);

/** Starts a revoke whose DELETE the sandbox answers 4 s late, and waits until it is in flight. */
async function revokeInFlight(licenseId: string): Promise<void> {
  expect(rig.sandbox.inspect.license(licenseId)?.active).toBe(true);
  rig.sandbox.addFault({ kind: 'latency', latencyMs: 4_000, method: 'DELETE' });
  expect(await clickRevoke(licenseId, `revoke-${licenseId}`)).toBe(200);
  await until('the DELETE to be in flight', () => deletes(licenseId).some((r) => r.status === 0));
}

/** The revoke was applied once, audited, the admin told; npm (and so node) exited 0 after a full drain. */
async function expectDrained(licenseId: string): Promise<void> {
  expect(await rig.main?.exited).toBe(0);
  expect(deletes(licenseId)).toHaveLength(1);
  expect(rig.sandbox.inspect.license(licenseId)?.active).toBe(false);
  const entry = { action: 'revoke', outcome: 'done', licenseId, actor: TEST_USERS.admin };
  expect(auditTable()).toContainEqual(expect.objectContaining(entry));
  expect(logLines()).toContainEqual(expect.objectContaining({ message: 'audit', ...entry }));
  const told = rig.slack.responses.filter((p) => p.id === `revoke-${licenseId}`).map((p) => textOf(p.body));
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
    await rig.main?.waitFor(/"message":"stopping"/);
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
