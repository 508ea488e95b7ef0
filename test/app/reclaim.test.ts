/**
 * Reclaim rounds ("still learning?") through the real boundary: signed slash commands and clicks, the
 * fake Slack (users.lookupByEmail, DMs, chat.update) and the licensing sandbox on loopback. The app's
 * clock is injected and moved forward for the reminder and the deadline; the scheduler is ticked.
 *
 * Seed (sandbox demo data): pool 2003 (transferable, full, 8 of 8) and 2001 (transferable) and 2002
 * (untransferable). Progress records: in 2003 student 4 stalled (keeps), 2 not started (releases), 0
 * stalled (no answer), 22 completed, 23 progressing, 24 stalled but not in Slack; in 2001 student 0
 * stalled (no answer); in 2002 student 15 stalled.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReclaimActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf } from '../../src/progress/domain/progress.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { holderInSlack, type SlackCall } from '../support/fake-slack.js';
import { allText, buttons, callText } from '../support/fixtures.js';
import { openHome } from '../support/progress.js';
import { selfServiceTo, waitlistedRequest } from '../support/requests.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-reclaim-'));
const CHANNEL = 'C0RECLAIM1';
const ADMIN = TEST_USERS.admin;
const WAITER = { id: 'U0WAITER01', name: 'wes.wait', email: 'wes.wait@contoso.com' };
let clock = new Date('2026-11-25T10:00:00.000Z');
const t0 = clock.getTime();
let t: TestApp;
/** Student index -> their 2003 license (and 2001's, 2002's where used). */
const lic: Record<string, License> = {};
const users: Record<string, string> = {};
let notInSlackName = '';

const dmsTo = (user: string): SlackCall[] =>
  t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(user));
const askDms = (user: string) =>
  dmsTo(user).filter((c) => buttons(c.args).some((b) => b.action_id === ReclaimActionId.keep));
/** The raw buttons of a message (with their confirm dialogs). */
function rawButtons(message: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o.type === 'button') out.push(o);
      else for (const x of Object.values(o)) walk(x);
    }
  };
  walk(message);
  return out;
}
const text = callText;

beforeAll(async () => {
  // Slack users for the holders that can be asked (students' e-mails are read from the sandbox below).
  t = await startTestApp({
    // A DATA_DIR of its own: the desk (App Home's dashboard) runs, as in production.
    dataDir,
    now: () => clock,
    admins: [ADMIN],
    reclaim: {},
    ...selfServiceTo(CHANNEL),
    slack: { users: [WAITER] },
  });
  const byStudent = async (poolId: string) => {
    const all = await t.licensing.pools.allLicenses(poolId);
    return all.filter((l) => l.active);
  };
  const p2003 = await byStudent('2003');
  const p2001 = await byStudent('2001');
  const p2002 = await byStudent('2002');
  const s = (list: License[], studentId: string) => {
    const l = list.find((x) => x.student.id === studentId);
    if (!l) throw new Error(`no license for student ${studentId}`);
    return l;
  };
  // Student ids are 3001 + index.
  lic.keeper = s(p2003, '3005');
  lic.leaver = s(p2003, '3003');
  lic.silent = s(p2003, '3001');
  lic.s22 = s(p2003, '3023');
  lic.s23 = s(p2003, '3024');
  lic.s24 = s(p2003, '3025');
  // Student 0 holds 2001 too (to the pool's end): asked in two rounds, answers neither.
  lic.silent2001 = s(p2001, '3001');
  lic.s15in2002 = s(p2002, '3016');
  notInSlackName = lic.s24.student.name;
  const slackUsers = [
    ['keeper', 'U0HOLDER00'],
    ['leaver', 'U0HOLDER02'],
    ['silent', 'U0HOLDER04'],
    ['s22', 'U0HOLDER22'],
    ['s23', 'U0HOLDER23'],
    ['s15in2002', 'U0HOLDER15'],
  ] as const;
  for (const [key, id] of slackUsers) {
    users[key] = id;
    holderInSlack(t.slack, id, lic[key] as License);
  }
  // Progress records, as the daily pass would have left them.
  const store = createProgressStore(t.records as NonNullable<typeof t.records>);
  const obs = (l: License, progress: number, completed: string | null = null) => ({
    ...observationOf(l, progress, completed),
    active: true,
  });
  const longAgo = new Date(t0 - 40 * DAY);
  await store.record(
    [
      obs(lic.keeper, 40),
      obs(lic.leaver, 0),
      obs(lic.silent, 55),
      obs(lic.s22, 100, new Date(t0 - 50 * DAY).toISOString()),
      obs(lic.s23, 20),
      obs(lic.s24, 35),
      obs(lic.silent2001, 10),
      obs(lic.s15in2002, 25),
    ],
    longAgo,
  );
  await store.record([obs(lic.s23, 30)], new Date(t0 - DAY));
});

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function waitlistRequest(): Promise<void> {
  await waitlistedRequest(t, {
    channel: CHANNEL,
    admin: ADMIN,
    waiter: WAITER.id,
    viewId: 'VRECLAIMW1',
    poolId: '2003',
    messageTs: '1767225600.000400',
  });
}

const notWorking = (p: { body: Record<string, unknown> }) => !String(p.body.text).includes('Working');

describe('reclaim rounds: still learning?', () => {
  let round1Asks: Record<string, string> = {};
  /** The holder `who` clicks `actionId` on the round-1 ask in their DM; what they are answered. */
  const answerOwnAsk = async (actionId: string, who: 'keeper' | 'leaver') => {
    const r = await t.clickButton(actionId, round1Asks[who] as string, {
      userId: users[who] as string,
      channelId: dmChannel(users[who] as string),
    });
    return r.waitForResponse();
  };

  it('is for admins only', async () => {
    const r = await t.command('reclaim', { userId: TEST_USERS.viewer });
    const answer = await r.waitForResponse();
    expect(String(answer.body.text)).toMatch(/admin/i);
    expect(allText(answer.body.blocks)).not.toContain(lic.keeper?.student.name ?? '?');
  });

  it('an untransferable pool has no round: a revoke there gives no seat back', async () => {
    const r = await t.command('reclaim 2002');
    const answer = await r.waitForResponse(notWorking);
    expect(allText(answer.body.blocks)).toContain('untransferable');
    expect(allText(answer.body.blocks)).toContain('gives no seat back');
    expect(buttons(answer.body)).toEqual([]);
  });

  it('the preview lists exactly the stalled and not started of transferable pools, and who is not in Slack; it writes nothing', async () => {
    await waitlistRequest();
    const r = await t.command('reclaim');
    const answer = await r.waitForResponse(notWorking);
    const all = allText(answer.body.blocks);
    for (const key of ['keeper', 'leaver', 'silent', 'silent2001'])
      expect(all).toContain((lic[key] as License).student.name);
    for (const key of ['s22', 's23', 's15in2002']) expect(all).not.toContain((lic[key] as License).student.email);
    expect(all).toMatch(new RegExp(`Cannot be asked[^]*${notInSlackName}`));
    expect(all).toContain('since at least');
    expect(all).toContain('1 request waiting');
    expect(all).toContain('4 holders would be asked, 1 cannot be asked');
    expect(all).not.toContain('(s)');
    expect(buttons(answer.body).map((b) => b.action_id)).toEqual([
      ReclaimActionId.startRelease,
      ReclaimActionId.startList,
    ]);
    const rounds = await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute();
    expect(rounds).toEqual([]);
  });

  it('Start asks exactly the holders of the pool by DM, once, and the admin gets one round message', async () => {
    const preview = await (await t.command('reclaim 2003')).waitForResponse(notWorking);
    const start = rawButtons(preview.body).find((b) => String(b.value).includes('release'));
    expect(start?.confirm).toBeDefined();
    const r = await t.clickButton(ReclaimActionId.startRelease, String(start?.value));
    const started = await r.waitForResponse(notWorking);
    expect(allText(started.body.blocks)).toContain('3 holders asked');
    await until(
      'step 1',
      () =>
        askDms(users.keeper as string).length === 1 &&
        askDms(users.leaver as string).length === 1 &&
        askDms(users.silent as string).length === 1,
    );
    await t.outbox?.flush();
    await t.settled();
    for (const key of ['s22', 's23', 's15in2002']) expect(dmsTo(users[key] as string)).toEqual([]);
    const ask = askDms(users.keeper as string)[0] as SlackCall;
    expect(text(ask)).toContain('Optimizing DAX');
    expect(text(ask)).toContain('40 %');
    const release = rawButtons(ask.args).find((b) => b.action_id === ReclaimActionId.release);
    expect(release?.confirm).toBeDefined();
    round1Asks = Object.fromEntries(
      ['keeper', 'leaver', 'silent'].map((k) => [
        k,
        String(
          buttons((askDms(users[k] as string)[0] as SlackCall).args).find((b) => b.action_id === ReclaimActionId.keep)
            ?.value,
        ),
      ]),
    );
    await until('step 2', () => dmsTo(ADMIN).some((c) => text(c).includes('Asked 3')));

    // Round 2: pool 2001, only listed; student 4 is in both rounds.
    const p2 = await (await t.command('reclaim 2001')).waitForResponse(notWorking);
    const list = buttons(p2.body).find((b) => String(b.value).includes('list'));
    await (await t.clickButton(ReclaimActionId.startList, String(list?.value))).waitForResponse(notWorking);
    await until('step 3', () => askDms(users.silent as string).length === 2);
  });

  it('Keep holds the seat (no revoke), is audited and updates the round message in place', async () => {
    const answer = await answerOwnAsk(ReclaimActionId.keep, 'keeper');
    expect(allText(answer.body.blocks)).toContain('you keep your seat');
    expect((await t.licensing.licenses.get((lic.keeper as License).id)).active).toBe(true);
    await until('step 4', async () =>
      (await t.audit.recent(50)).some((e) => e.action === 'reclaim-kept' && e.licenseId === lic.keeper?.id),
    );
    await until('step 5', () => t.slack.calls.some((c) => c.method === 'chat.update' && text(c).includes('kept 1')));
    // Someone else cannot answer for them.
    const other = await t.clickButton(ReclaimActionId.release, round1Asks.leaver as string, {
      userId: users.keeper as string,
    });
    expect(allText((await other.waitForResponse()).body.blocks)).toContain('not for you');
    expect((await t.licensing.licenses.get((lic.leaver as License).id)).active).toBe(true);
  });

  it("App Home lists the open round with its figures for admins, without anyone's name; a viewer sees no rounds", async () => {
    const home = allText((await openHome(t, TEST_USERS.admin)).args.view);
    expect(home).toContain('Reclaim rounds* · 2');
    // The two open rounds, with the same figures as their round messages.
    expect(home).toMatch(/pool `2001`: Asked 1 · kept 0 · released 0 · no answer 1 · not in Slack 0\. Deadline/);
    expect(home).toMatch(/pool `2003`: Asked 3 · kept 1 · released 0 · no answer 2 · not in Slack 1\. Deadline/);
    expect(home).not.toMatch(/@school\.example|keeper|leaver/i);
    const viewerHome = allText((await openHome(t, TEST_USERS.viewer)).args.view);
    expect(viewerHome).not.toContain('Reclaim rounds');
  });

  it('Release revokes once, audited; the first waitlisted request gets the seat; the holder can ask again', async () => {
    const answer = await answerOwnAsk(ReclaimActionId.release, 'leaver');
    expect(allText(answer.body.blocks)).toContain('released');
    expect(buttons(answer.body).map((b) => [b.action_id, b.value])).toEqual([[RequestActionId.openFor, '2003']]);
    expect((await t.licensing.licenses.get((lic.leaver as License).id)).active).toBe(false);
    await waitForDm(t.slack, WAITER.id, 'it is yours', { text: allText, timeoutMs: 10_000 });
    // "Ask for it again" opens the course request form with that pool picked.
    const views = () => t.slack.calls.filter((c) => c.method === 'views.update').length;
    const before = views();
    await t.clickButton(RequestActionId.openFor, '2003', { userId: users.leaver as string });
    await until('the request form', () => views() > before);
    const form = t.slack.calls.filter((c) => c.method === 'views.update').at(-1) as SlackCall;
    expect(JSON.stringify(form.args.view)).toMatch(/"initial_option":\{"text":\{[^}]*\},"value":"2003"/);
    // Answered in place: no second "released" DM to the holder.
    await t.outbox?.flush();
    expect(dmsTo(users.leaver as string).filter((c) => text(c).includes('released'))).toEqual([]);
    // A second click changes nothing.
    const again = await t.clickButton(ReclaimActionId.release, round1Asks.leaver as string, {
      userId: users.leaver as string,
    });
    expect(allText((await again.waitForResponse()).body.blocks)).toContain('already released');
    await t.settled();
    const entries = await t.audit.recent(100);
    expect(
      entries.filter((e) => e.action === 'revoke' && e.licenseId === lic.leaver?.id && e.outcome === 'done'),
    ).toHaveLength(1);
    expect(
      entries.some(
        (e) => e.action === 'reclaim-released' && e.licenseId === lic.leaver?.id && e.actor === users.leaver,
      ),
    ).toBe(true);
    const intents = await t.records?.db
      .selectFrom('intents')
      .selectAll()
      .where('subject', '=', (lic.leaver as License).id)
      .execute();
    expect(intents?.map((i) => i.kind)).toEqual(['revoke']);
  });

  it('reminders: one message per person per day, listing every round that waits for them', async () => {
    clock = new Date(t0 + 4 * DAY + 60_000);
    await t.reclaim?.tick();
    await t.outbox?.flush();
    await until('step 6', () => dmsTo(users.silent as string).some((c) => text(c).includes('reminder')));
    const reminders = () => dmsTo(users.silent as string).filter((c) => text(c).includes('reminder'));
    expect(reminders()).toHaveLength(1);
    const r = reminders()[0] as SlackCall;
    expect(text(r)).toContain('Optimizing DAX');
    expect(text(r)).toContain('Mastering DAX');
    // Those who answered are not reminded; a second tick the same day sends nothing.
    clock = new Date(t0 + 4 * DAY + 3_600_000);
    await t.reclaim?.tick();
    await t.outbox?.flush();
    await t.settled();
    expect(reminders()).toHaveLength(1);
    expect(dmsTo(users.keeper as string).filter((c) => text(c).includes('reminder'))).toEqual([]);
  });

  it('at the deadline the unanswered are released (round 1) or only listed for the admin (round 2); a second tick does nothing', async () => {
    clock = new Date(t0 + 7 * DAY + 60_000);
    await t.reclaim?.tick();
    await t.outbox?.flush();
    expect((await t.licensing.licenses.get((lic.silent as License).id)).active).toBe(false);
    expect((await t.licensing.licenses.get((lic.silent2001 as License).id)).active).toBe(true);
    expect((await t.licensing.licenses.get((lic.keeper as License).id)).active).toBe(true);
    await until('step 7', () =>
      dmsTo(users.silent as string).some((c) => text(c).includes('no answer by the deadline')),
    );
    await until('step 8', () =>
      t.slack.calls.some(
        (c) =>
          c.method === 'chat.update' &&
          text(c).includes('Closed') &&
          text(c).includes((lic.silent2001 as License).student.email),
      ),
    );
    await until('step 9', () =>
      t.slack.calls.some(
        (c) => c.method === 'chat.update' && text(c).includes('released 2') && text(c).includes('Closed'),
      ),
    );
    const entries = await t.audit.recent(100);
    expect(
      entries.filter((e) => e.action === 'reclaim-released' && e.licenseId === lic.silent?.id && e.actor === ADMIN),
    ).toHaveLength(1);
    const revokes = () => t.sandbox.requests.filter((q) => q.method === 'DELETE');
    const before = revokes().length;
    await t.reclaim?.tick();
    await t.outbox?.flush();
    await t.settled();
    expect(revokes().length).toBe(before);
    expect(
      (await t.audit.recent(100)).filter((e) => e.action === 'revoke' && e.licenseId === lic.silent?.id),
    ).toHaveLength(1);
  });

  it('a later preview leaves out who chose Keep (counted) and who was released', async () => {
    const answer = await (await t.command('reclaim 2003')).waitForResponse(notWorking);
    const all = allText(answer.body.blocks);
    expect(all).toContain('1 chose Keep within 60 days');
    for (const key of ['keeper', 'leaver', 'silent']) expect(all).not.toContain((lic[key] as License).student.email);
    expect(all).toContain(notInSlackName);
  });
});
