/**
 * The learner's own desk through the real boundary: signed slash commands, clicks and modal
 * submissions in, the fake Slack (users.info, views, DMs) and the licensing sandbox on loopback out.
 * `/licenses mine` lists only the clicker's own licenses; "Return my seat" confirms, then revokes
 * once through the revoke use case (audited as a return by its holder, the seat to the waitlist);
 * an untransferable seat and someone else's license are refused and nothing is sent. The reminders
 * before a license ends come from the progress records: once per end date, at most weekly, and
 * "Stop these reminders" is remembered.
 *
 * Seed (sandbox demo data): pool 2003 (transferable, full), 2001 (transferable), 2002 (untransferable).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LearnerActionId, LearnerCallbackId } from '../../src/kernel/blocks/ids.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf } from '../../src/progress/domain/progress.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { dmChannel } from '../support/dms.js';
import { holderInSlack, type SlackCall } from '../support/fake-slack.js';
import { allText, buttons, callText } from '../support/fixtures.js';
import { selfServiceTo, waitlistedRequest } from '../support/requests.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-learners-'));
const CHANNEL = 'C0LEARNER1';
const ADMIN = TEST_USERS.admin;
const LEARNER = 'U0LEARN001';
const OTHER = 'U0LEARN002';
const REMINDED = 'U0LEARN003';
const UNTRANS = 'U0LEARN004';
const WAITER = { id: 'U0WAITER02', name: 'wil.wait', email: 'wil.wait@contoso.com' };
let clock = new Date('2026-11-25T10:00:00.000Z');
let t: TestApp;
let mine2003: License;
let mine2001: License;
let untransferable: License;
let others2003: License;
let reminded: License;

const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE');
const text = callText;
const dmsTo = (user: string): SlackCall[] =>
  t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(user));
const viewOf = (c: SlackCall) => c.args.view as { blocks: unknown[]; submit?: unknown; private_metadata?: string };

beforeAll(async () => {
  t = await startTestApp({
    dataDir,
    now: () => clock,
    admins: [ADMIN],
    learners: {},
    ...selfServiceTo(CHANNEL),
    slack: { users: [WAITER] },
  });
  const active = async (poolId: string) => (await t.licensing.pools.allLicenses(poolId)).filter((l) => l.active);
  const p2003 = await active('2003');
  const p2001 = await active('2001');
  const both = p2003.find((l) => p2001.some((m) => m.student.email === l.student.email));
  if (!both) throw new Error('the demo data has no student in both 2003 and 2001');
  mine2003 = both;
  mine2001 = p2001.find((m) => m.student.email === both.student.email) as License;
  untransferable = (await active('2002'))[0] as License;
  const rest = p2003.filter((l) => l.student.email !== both.student.email);
  others2003 = rest[0] as License;
  reminded = rest[1] as License;
  holderInSlack(t.slack, LEARNER, mine2003);
  holderInSlack(t.slack, OTHER, others2003);
  holderInSlack(t.slack, REMINDED, reminded);
  holderInSlack(t.slack, UNTRANS, untransferable);
  // The progress records, as the daily pass leaves them: what App Home lists (it asks the API nothing).
  const store = createProgressStore(t.records as NonNullable<typeof t.records>);
  await store.record(
    [mine2003, mine2001].map((l) => ({ ...observationOf(l, 40), active: true })),
    clock,
  );
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The holder clicks "Return my seat" on `licenseId`: the modal it ends with (after the loading view). */
async function clickReturn(user: string, licenseId: string) {
  const from = t.slack.calls.length;
  await t.clickButton(LearnerActionId.returnSeat, licenseId, { userId: user, channelId: dmChannel(user) });
  const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
  const viewId = String((open.args.view as { id?: string }).id ?? '');
  const update = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= from);
  return { viewId, view: viewOf(update), from };
}

async function submitReturn(user: string, viewId: string, meta: string) {
  const from = t.slack.calls.length;
  await t.viewSubmission(
    { view: { id: viewId, callback_id: LearnerCallbackId.returnConfirm, private_metadata: meta } },
    { userId: user },
  );
  await t.settled();
  const update = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= from);
  return allText(viewOf(update).blocks);
}

describe('/licenses mine', () => {
  it('lists the member’s own licenses with both buttons, and nobody else’s', async () => {
    const r = await t.command('mine', { userId: LEARNER });
    const answer = await r.waitForResponse((p) => !String(p.body.text).includes('reading your licenses'));
    const all = allText(answer.body.blocks);
    expect(all).toContain(mine2003.id);
    expect(all).toContain(mine2001.id);
    expect(all).not.toContain(others2003.id);
    expect(all).toContain(mine2003.student.email);
    const ids = buttons(answer.body).map((b) => `${b.action_id}:${b.value}`);
    expect(ids).toContain(`${LearnerActionId.returnSeat}:${mine2003.id}`);
    expect(ids).toContain(`${LearnerActionId.moreTime}:${mine2003.id}`);
  });

  it('says plainly when the Slack e-mail matches no student', async () => {
    const r = await t.command('mine', { userId: TEST_USERS.nobody });
    const answer = await r.waitForResponse((p) => !String(p.body.text).includes('reading your licenses'));
    expect(String(answer.body.text)).toContain('no student with it');
    expect(buttons(answer.body)).toEqual([]);
  });

  it('is not for guests, as course requests are not', async () => {
    const r = await t.command('mine', { userId: TEST_USERS.guest });
    const answer = await r.waitForResponse();
    expect(String(answer.body.text)).toContain('only full members');
  });

  it('App Home shows "Your licenses" with the buttons', async () => {
    const from = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: LEARNER, tab: 'home' });
    const home = await t.slack.waitForCall(
      'views.publish',
      (c) =>
        t.slack.calls.indexOf(c) >= from &&
        c.args.user_id === LEARNER &&
        allText(viewOf(c).blocks).includes('Your licenses'),
    );
    const all = allText(viewOf(home).blocks);
    expect(all).toContain(mine2003.id);
    expect(all).not.toContain(others2003.id);
  });
});

describe('Return my seat', () => {
  it('an untransferable seat is refused with the reason, and nothing is sent', async () => {
    const { view } = await clickReturn(UNTRANS, untransferable.id);
    expect(allText(view.blocks)).toContain('untransferable');
    expect(view.submit).toBeUndefined();
    expect(deletes()).toEqual([]);
  });

  it('someone else’s license (a forged click or submission) is refused and changes nothing', async () => {
    const { view } = await clickReturn(LEARNER, others2003.id);
    expect(allText(view.blocks)).toContain('not yours');
    expect(allText(view.blocks)).not.toContain(others2003.student.name);
    const answer = await submitReturn(LEARNER, 'VFORGED001', JSON.stringify({ licenseId: others2003.id, home: false }));
    expect(answer).toContain('not yours');
    expect(deletes()).toEqual([]);
    expect((await t.licensing.licenses.get(others2003.id)).active).toBe(true);
  });

  it('confirms, then revokes once, audits it as a return by its holder, and the waitlist gets the seat', async () => {
    // WAITER's request for 2003 (full) waits first in line.
    const w = { viewId: 'VLEARNW001', poolId: '2003', messageTs: '1767225600.000500' };
    await waitlistedRequest(t, { channel: CHANNEL, admin: ADMIN, waiter: WAITER.id, ...w });
    const { view, viewId } = await clickReturn(LEARNER, mine2003.id);
    expect(view.submit).toBeDefined();
    expect(allText(view.blocks)).toContain('ends now');
    expect(deletes()).toEqual([]);
    const answer = await submitReturn(LEARNER, viewId, String(view.private_metadata));
    expect(answer).toContain('Returned your seat');
    expect(deletes().map((r) => r.url)).toEqual([`/v1/license/${mine2003.id}`]);
    expect((await t.licensing.licenses.get(mine2003.id)).active).toBe(false);
    const entries = await t.records?.db
      .selectFrom('audit')
      .selectAll()
      .where('action', '=', 'returned')
      .where('outcome', '=', 'done')
      .execute();
    expect(entries?.map((e) => [e.actor, e.license_id])).toEqual([[LEARNER, mine2003.id]]);
    await until('the waitlisted requester holds a 2003 seat', async () =>
      (await t.licensing.pools.allLicenses('2003')).some((l) => l.active && l.student.email === WAITER.email),
    );
  });
});

describe('reminders before a license ends', () => {
  const at = (days: number) => new Date(clock.getTime() + days * DAY).toISOString().slice(0, 10);
  const record = async (licenseId: string, endInDays: number) => {
    const store = createProgressStore(t.records as NonNullable<typeof t.records>);
    await store.record([{ ...observationOf(reminded, 35), licenseId, end: at(endInDays), active: true }], clock);
  };
  const reminders = () =>
    dmsTo(REMINDED).filter((c) => buttons(c.args).some((b) => b.action_id === LearnerActionId.stopReminders));

  it('sends one DM with the progress and both buttons, once per end date', async () => {
    await record('R-1', 5);
    await t.learners?.tick();
    await t.settled();
    await until('the reminder DM', () => reminders().length === 1);
    const dm = reminders()[0] as SlackCall;
    expect(text(dm)).toContain('35 % done');
    expect(buttons(dm.args).map((b) => `${b.action_id}:${b.value ?? ''}`)).toEqual(
      expect.arrayContaining([`${LearnerActionId.returnSeat}:R-1`, `${LearnerActionId.moreTime}:R-1`]),
    );
    await t.learners?.tick();
    await t.settled();
    expect(reminders()).toHaveLength(1);
  });

  it('sends at most one such DM a week', async () => {
    clock = new Date(clock.getTime() + DAY);
    await record('R-2', 4);
    await t.learners?.tick();
    await t.settled();
    expect(reminders()).toHaveLength(1);
    clock = new Date(clock.getTime() + 7 * DAY);
    await record('R-3', 6);
    await t.learners?.tick();
    await t.settled();
    await until('the second reminder DM', () => reminders().length === 2);
    expect(text(reminders()[1] as SlackCall)).toContain('R-3');
  });

  it('"Stop these reminders" is remembered', async () => {
    const r = await t.clickButton(LearnerActionId.stopReminders, 'stop', {
      userId: REMINDED,
      channelId: dmChannel(REMINDED),
    });
    expect(String((await r.waitForResponse()).body.text)).toContain('no more reminders');
    clock = new Date(clock.getTime() + 8 * DAY);
    await record('R-4', 3);
    await t.learners?.tick();
    await t.settled();
    expect(reminders()).toHaveLength(2);
    const prefs = await t.records?.db.selectFrom('learner_prefs').selectAll().execute();
    expect(prefs?.map((p) => [p.slack_user, Number(p.reminders_off)])).toEqual([[REMINDED, 1]]);
  });
});
