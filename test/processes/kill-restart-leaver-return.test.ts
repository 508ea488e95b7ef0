/**
 * A leaver's seat returned after the grace survives SIGKILL of the real process: with
 * LEAVER_GRACE_DAYS=0 a deactivated member's seat in the transferable pool 2001 is due at once, the
 * return job sends its DELETE, the licensing service applies it and the answer is held from the app,
 * and the process is killed. The next start on the same DATA_DIR reads it back: the license is
 * revoked once (one DELETE ever), audited once as "returned: left the workspace", and the alert
 * channel says it once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { License } from '../../src/kernel/domain/types.js';
import { allText } from '../support/fixtures.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { auditTableIn } from '../support/run-main.js';
import { until } from '../support/until.js';

const ALERTS = 'C0ALERTS01';
const LEAVER = 'U0LEAVE001';
const SETTLE_MS = 90_000;

let desk: KilledDesk;
let seat: License;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { LEAVER_GRACE_DAYS: '0', ALERT_CHANNEL: ALERTS } });
  const holds = desk.sandbox.inspect.licenses().filter((l) => l.active);
  // A holder of exactly one license, in the transferable pool 2001.
  const found = holds.find(
    (l) => l.poolId === '2001' && holds.filter((x) => x.student.email === l.student.email).length === 1,
  );
  if (!found) throw new Error('the demo seed has no holder of one 2001 license');
  seat = found;
  desk.slack.setUser({
    id: LEAVER,
    name: 'leaver',
    realName: seat.student.name,
    email: seat.student.email,
    deleted: true,
  });
});

afterEach(async () => {
  await desk?.close();
});

const deletes = () => desk.sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${seat.id}`);
const posts = (words: string) =>
  desk.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.args.channel === ALERTS &&
      `${String(c.args.text)} ${allText(c.args.blocks)}`.includes(words),
  );

/** The audit entries of the return, as the records keep them. */
const audited = () =>
  auditTableIn(desk.dataDir)
    .filter((e) => e.action === 'leaver-returned' && e.licenseId === seat.id)
    .map((e) => ({ action: e.action, outcome: e.outcome, actor: e.actor }));

describe('a leaver’s seat returned after the grace, the process killed mid-return, started again on the same DATA_DIR', () => {
  it('killed after the licensing service applied the DELETE, its answer pending: revoked once, audited once, told once', async () => {
    await desk.start();
    const hold = desk.licensing.hold({ method: 'DELETE', path: /^\/v1\/license\//, phase: 'after' });
    expect(
      (
        await desk.event({
          type: 'user_change',
          user: { id: LEAVER, deleted: true, profile: { email: seat.student.email } },
        })
      ).status,
    ).toBe(200);
    await until('the on-hold post', () => posts(`<@${LEAVER}> left the workspace`).length === 1, 30_000);
    await until('the DELETE applied and its answer held', () => hold.request !== undefined, 30_000);
    expect(desk.sandbox.inspect.license(seat.id)?.active).toBe(false);

    await desk.killAndRestart();
    await until('the return settled and told', () => posts('Returned 1 seat of leavers').length > 0, SETTLE_MS, 250);
    await until('the audit entry', () => audited().length > 0, SETTLE_MS, 250);
    expect(deletes()).toHaveLength(1);
    expect(audited()).toEqual([{ action: 'leaver-returned', outcome: 'done', actor: 'license-desk' }]);
    expect(posts('Returned 1 seat of leavers')).toHaveLength(1);
    expect(posts(`<@${LEAVER}> left the workspace`)).toHaveLength(1);
  }, 150_000);
});
