/**
 * The two-person rule for mass changes through the real boundary: signed modal submissions and clicks,
 * the fake Slack (DMs, cards, replies) and the licensing sandbox on loopback. A bulk job over
 * TWO_PERSON_MIN_ROWS (2 here) is held with no licensing write; its card reaches the other admin; the
 * submitter cannot approve it; a second admin's approval runs it once even on a double click; Reject
 * and expiry send nothing; the rule off, or a job at the threshold, starts as before; a scope with one
 * admin asks that admin to confirm (audited) and App Home says the rule cannot hold. The same for a
 * reclaim round.
 */
import { describe, expect, it } from 'vitest';
import {
  DeskCallbackId,
  ReclaimActionId,
  TwoPersonActionId,
  TwoPersonCallbackId,
} from '../../src/kernel/blocks/ids.js';
import { poolsScope } from '../../src/kernel/domain/scope.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf } from '../../src/progress/domain/progress.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { bulkFormValues } from '../support/bulk.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { holderInSlack, type SlackCall } from '../support/fake-slack.js';
import { allText, buttons, callText } from '../support/fixtures.js';
import { openHome } from '../support/progress.js';
import { until } from '../support/until.js';

const ADMIN = TEST_USERS.admin;
const SECOND = TEST_USERS.workspaceAdmin;
const AUDIT = 'C0AUDIT0TP';
const HOUR = 3_600_000;

type View = { callback_id?: string; private_metadata?: string; blocks?: unknown[] };

/** The bulk form submitted, then its report confirmed: the confirmation's ack (the modal's next view). */
async function submitBulk(t: TestApp, poolId: string, emails: string[], userId = ADMIN) {
  const before = t.slack.calls.length;
  const list = emails.map((e) => `${e.split('@')[0]}, ${e}`).join('\n');
  const ack = await t.viewSubmission(
    { view: { callback_id: DeskCallbackId.bulkForm, state: { values: bulkFormValues(poolId, [list]) } } },
    { userId },
  );
  const pushed = JSON.parse(ack.body || '{}') as { view?: { external_id?: string } };
  const update = await t.slack.waitForCall(
    'views.update',
    (c) => t.slack.calls.indexOf(c) >= before && c.args.external_id === pushed.view?.external_id,
    10_000,
  );
  const report = update.args.view as View;
  const confirmed = await t.viewSubmission(
    {
      view: {
        callback_id: DeskCallbackId.bulkConfirm,
        private_metadata: report.private_metadata,
        state: { values: {} },
      },
    },
    { userId },
  );
  expect(confirmed.status).toBe(200);
  return JSON.parse(confirmed.body || '{}') as { response_action?: string; view?: View };
}

/** Accepted assign writes to the sandbox for `poolId` (a 429 is refused before anything happens). */
const assigns = (t: TestApp, poolId: string) =>
  t.sandbox.requests.filter((r) => r.method === 'POST' && r.url === `/v1/pool/${poolId}/license` && r.status !== 429);

/** The card in `user`'s DM for the change to `words`; its change id (the buttons' value). */
async function cardFor(t: TestApp, user: string, words: string): Promise<{ call: SlackCall; id: string }> {
  const call = await waitForDm(t.slack, user, words, { text: (blocks) => allText(blocks) });
  const approve = buttons(call.args).find((b) => b.action_id === TwoPersonActionId.approve);
  return { call, id: String(approve?.value) };
}

const click = (t: TestApp, actionId: string, id: string, userId: string) =>
  t.clickButton(actionId, id, { userId, channelId: dmChannel(userId) });

const emails = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}@contoso.com`);

let clock = new Date('2026-11-25T10:00:00.000Z');

describe('two-person rule: a bulk job over the threshold waits for a second admin', () => {
  const t = appPerFile('desk-two-person-', (dataDir) =>
    startTestApp({
      dataDir,
      now: () => clock,
      admins: [ADMIN, SECOND],
      auditChannel: AUDIT,
      twoPerson: { minRows: 2, expiryHours: 24 },
    }),
  );
  let heldId = '';

  it('is held: no licensing write, and a card with the dry run’s figures reaches the other admin only', async () => {
    const ack = await submitBulk(t, '2007', emails('tp.held', 3));
    expect(allText(ack.view)).toContain("Sent for a second admin's approval");
    expect(allText(ack.view)).toContain(`<@${SECOND}>`);
    const card = await cardFor(t, SECOND, `<@${ADMIN}> wants to assign 3 licenses in pool \`2007\``);
    expect(allText(card.call.args.blocks)).toContain('3 rows to send');
    heldId = card.id;
    expect(heldId).toMatch(/^mc[0-9a-f]{16}$/);
    await t.settled();
    expect(
      t.slack.calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === dmChannel(ADMIN) &&
          allText(c.args.blocks).includes('wants to assign'),
      ),
    ).toBe(false);
    expect(assigns(t, '2007')).toEqual([]);
  });

  it('the submitter approving their own change (a forged click), a viewer, or an admin outside its scope: one sentence, nothing changes', async () => {
    const own = await (await click(t, TwoPersonActionId.approve, heldId, ADMIN)).waitForResponse();
    expect(String(own.body.text)).toContain('You submitted this change yourself');
    const viewer = await (await click(t, TwoPersonActionId.approve, heldId, TEST_USERS.viewer)).waitForResponse();
    expect(String(viewer.body.text)).toContain('Only license admins');
    // A resolver that gives the second admin other pools only (as roles kept in the database would).
    const roles = t.deps.roles;
    roles.scopeOf = async (_client, user) => (user === SECOND ? poolsScope(['2001']) : { all: true });
    try {
      const outside = await (await click(t, TwoPersonActionId.approve, heldId, SECOND)).waitForResponse();
      expect(String(outside.body.text)).toContain('Only an admin of every pool this change touches');
    } finally {
      delete roles.scopeOf;
    }
    await t.settled();
    expect(assigns(t, '2007')).toEqual([]);
    const row = await t.records?.db.selectFrom('mass_changes').selectAll().where('id', '=', heldId).executeTakeFirst();
    expect(row?.state).toBe('pending');
  });

  it('a second admin’s approval runs the job exactly once, even on a double click; the submitter is told once; the audit names both', async () => {
    const [a, b] = await Promise.all([
      click(t, TwoPersonActionId.approve, heldId, SECOND),
      click(t, TwoPersonActionId.approve, heldId, SECOND),
    ]);
    const answers = [await a.waitForResponse(), await b.waitForResponse()].map((r) => String(r.body.text));
    expect(answers.filter((x) => x.includes('Approved:'))).toHaveLength(1);
    expect(answers.filter((x) => x.includes('already decided'))).toHaveLength(1);
    await until('the assignments', () => assigns(t, '2007').length === 3, 20_000);
    await t.settled();
    expect(assigns(t, '2007')).toHaveLength(3);
    const told = t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === dmChannel(ADMIN) &&
        callText(c).includes('approved your change'),
    );
    expect(told).toHaveLength(1);
    expect(callText(told[0] as SlackCall)).toContain(`<@${SECOND}>`);
    const entries = await t.audit.recent(200);
    const approved = entries.find((e) => e.action === 'mass-change-approved' && e.outcome === 'done');
    expect(approved).toMatchObject({ actor: SECOND, requester: ADMIN, poolId: '2007' });
    expect(entries.find((e) => e.action === 'mass-change-held')).toMatchObject({ actor: ADMIN });
    expect(
      entries.some((e) => e.action === 'mass-change-approved' && e.outcome === 'refused' && e.actor === ADMIN),
    ).toBe(true);
    await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === AUDIT && allText(c.args).includes(`<@${SECOND}> approved <@${ADMIN}>’s mass change`),
    );
  });

  it('Reject sends nothing and tells the submitter once', async () => {
    // Pool 2007 has two seats left: these wait on pool 2001's free seats.
    const ack = await submitBulk(t, '2001', emails('tp.rejected', 3));
    expect(allText(ack.view)).toContain("Sent for a second admin's approval");
    await t.settled();
    const ids = (await t.records?.db.selectFrom('mass_changes').select(['id', 'state']).execute()) ?? [];
    const pending = ids.find((r) => r.state === 'pending');
    expect(pending).toBeDefined();
    const id = String(pending?.id);
    const cards = t.slack.calls.filter((c) => buttons(c.args).some((b) => b.value === id));
    expect(cards.map((c) => c.args.channel)).toEqual([dmChannel(SECOND)]);
    const r = await (await click(t, TwoPersonActionId.reject, id, SECOND)).waitForResponse();
    expect(String(r.body.text)).toContain('Rejected: nothing was sent');
    await t.settled();
    const told = t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === dmChannel(ADMIN) &&
        callText(c).includes('rejected your change'),
    );
    expect(told).toHaveLength(1);
    expect(assigns(t, '2001')).toEqual([]);
    const again = await (await click(t, TwoPersonActionId.approve, id, SECOND)).waitForResponse();
    expect(String(again.body.text)).toContain('already decided');
  });

  it('expires after TWO_PERSON_EXPIRY_HOURS: nothing sent, the submitter told once, Approve then refused', async () => {
    const ack = await submitBulk(t, '2001', emails('tp.expired', 3));
    expect(allText(ack.view)).toContain("Sent for a second admin's approval");
    await t.settled();
    const row = (
      await t.records?.db.selectFrom('mass_changes').selectAll().where('state', '=', 'pending').execute()
    )?.[0];
    expect(row).toBeDefined();
    const id = String(row?.id);
    clock = new Date(clock.getTime() + 25 * HOUR);
    expect(await t.twoPerson?.tick()).toMatchObject({ expired: 1 });
    expect(await t.twoPerson?.tick()).toMatchObject({ expired: 0 });
    await t.settled();
    const told = t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === dmChannel(ADMIN) &&
        callText(c).includes('expired before a second admin'),
    );
    expect(told).toHaveLength(1);
    const late = await (await click(t, TwoPersonActionId.approve, id, SECOND)).waitForResponse();
    expect(String(late.body.text)).toContain('expired');
    expect(assigns(t, '2001')).toEqual([]);
    expect((await t.audit.recent(50)).some((e) => e.action === 'mass-change-expired' && e.requester === ADMIN)).toBe(
      true,
    );
  });

  it('an approval recorded whose start never ran (the process stopped between the two) is started by the job, once', async () => {
    await submitBulk(t, '2001', emails('tp.resumed', 3));
    await t.settled();
    const db = t.records?.db;
    const row = (await db?.selectFrom('mass_changes').selectAll().where('state', '=', 'pending').execute())?.[0];
    expect(row).toBeDefined();
    // What a process killed right after recording the approval leaves behind.
    await db
      ?.updateTable('mass_changes')
      .set({ state: 'approved', decided_by: SECOND, decided_at: new Date(clock.getTime() - 2 * 60_000).toISOString() })
      .where('id', '=', String(row?.id))
      .execute();
    expect(assigns(t, '2001')).toEqual([]);
    const runs = await Promise.all([t.twoPerson?.tick(), t.twoPerson?.tick()]);
    expect(runs.reduce((n, r) => n + (r?.restarted ?? 0), 0)).toBe(1);
    await until('the assignments', () => assigns(t, '2001').length === 3, 20_000);
    expect(await t.twoPerson?.tick()).toMatchObject({ restarted: 0 });
    await t.settled();
    expect(assigns(t, '2001')).toHaveLength(3);
    const after = await db?.selectFrom('mass_changes').selectAll().where('id', '=', String(row?.id)).executeTakeFirst();
    expect(after?.state).toBe('started');
  });

  it('at the threshold the job starts as before, with no card', async () => {
    const cardsBefore = t.slack.calls.filter((c) => callText(c).includes('wants to assign')).length;
    const ack = await submitBulk(t, '2007', emails('tp.small', 2));
    expect(ack.response_action).toBe('clear');
    await until('the assignments', () => assigns(t, '2007').length === 5, 20_000);
    await t.settled();
    expect(t.slack.calls.filter((c) => callText(c).includes('wants to assign')).length).toBe(cardsBefore);
  });
});

describe('two-person rule off (TWO_PERSON_MIN_ROWS=0), and a scope with one admin', () => {
  const off = appPerFile('desk-two-person-off-', (dataDir) =>
    startTestApp({ dataDir, admins: [ADMIN, SECOND], twoPerson: { minRows: 0 } }),
  );
  const alone = appPerFile('desk-two-person-alone-', (dataDir) =>
    startTestApp({ dataDir, admins: [ADMIN], auditChannel: AUDIT, twoPerson: { minRows: 2 } }),
  );

  it('with the rule off a big job starts at once', async () => {
    const ack = await submitBulk(off, '2007', emails('tp.off', 3));
    expect(ack.response_action).toBe('clear');
    await until('the assignments', () => assigns(off, '2007').length === 3, 20_000);
    await off.settled();
    expect(off.slack.calls.some((c) => callText(c).includes('wants to assign'))).toBe(false);
  });

  it('where nobody else can approve, the admin confirms sending it alone (audited), and App Home says the rule cannot hold', async () => {
    const ack = await submitBulk(alone, '2007', emails('tp.alone', 3));
    expect(ack.view?.callback_id).toBe(TwoPersonCallbackId.sendAlone);
    expect(allText(ack.view)).toContain('Nobody else can approve this');
    await alone.settled();
    expect(assigns(alone, '2007')).toEqual([]);
    const sent = await alone.viewSubmission(
      {
        view: {
          callback_id: TwoPersonCallbackId.sendAlone,
          private_metadata: ack.view?.private_metadata,
          state: { values: {} },
        },
      },
      { userId: ADMIN },
    );
    expect(allText(JSON.parse(sent.body))).toContain('Sent on your word alone');
    await until('the assignments', () => assigns(alone, '2007').length === 3, 20_000);
    const entry = (await alone.audit.recent(50)).find((e) => e.action === 'mass-change-alone');
    expect(entry).toMatchObject({ actor: ADMIN, outcome: 'done' });
    expect(entry?.detail).toContain('nobody else could approve it');
    const home = await openHome(alone, ADMIN);
    await alone.slack.waitForCall(
      'views.publish',
      (c) => c.args.user_id === ADMIN && allText(c.args.view).includes('two-person rule for mass changes cannot hold'),
      10_000,
    );
    expect(home).toBeDefined();
    const roles = await (await alone.command('roles', { userId: ADMIN })).waitForResponse(
      (p) => !String(p.body.text).includes('Working'),
    );
    expect(allText(roles.body.blocks)).toContain('two-person rule for mass changes cannot hold');
  });
});

describe('two-person rule: a reclaim round over the threshold', () => {
  const t = appPerFile('desk-two-person-reclaim-', (dataDir) =>
    startTestApp({ dataDir, admins: [ADMIN, SECOND], reclaim: {}, twoPerson: { minRows: 2 } }),
  );
  const asked = (user: string) =>
    t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === dmChannel(user) &&
        buttons(c.args).some((b) => b.action_id === ReclaimActionId.keep),
    );

  it('is held with no ask sent; the second admin’s approval asks exactly the previewed holders, once; at the threshold a round starts as before', async () => {
    const active = async (poolId: string) => (await t.licensing.pools.allLicenses(poolId)).filter((l) => l.active);
    const p2003 = await active('2003');
    const p2001 = await active('2001');
    const holders = ['3001', '3003', '3005'].map((id) => p2003.find((l) => l.student.id === id) as License);
    const one = p2001.find((l) => l.student.id === '3002') ?? (p2001[0] as License);
    const ids = ['U0TPHOLD01', 'U0TPHOLD02', 'U0TPHOLD03'];
    for (const [i, l] of holders.entries()) holderInSlack(t.slack, ids[i] as string, l);
    holderInSlack(t.slack, 'U0TPHOLD04', one);
    const store = createProgressStore(t.records as NonNullable<typeof t.records>);
    const obs = (l: License) => ({ ...observationOf(l, 0, null), active: true });
    await store.record([...holders, one].map(obs), new Date(Date.now() - 60 * 86_400_000));

    const preview = await (await t.command('reclaim 2003')).waitForResponse(
      (p) => !String(p.body.text).includes('Working'),
    );
    const start = buttons(preview.body).find((b) => b.action_id === ReclaimActionId.startList);
    const held = await (await t.clickButton(ReclaimActionId.startList, String(start?.value))).waitForResponse();
    expect(allText(held.body.blocks)).toContain("Sent for a second admin's approval");
    const card = await cardFor(t, SECOND, `<@${ADMIN}> wants to ask 3 holders in pool \`2003\``);
    await t.settled();
    for (const u of ids) expect(asked(u)).toEqual([]);
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toEqual([]);

    const [a, b] = await Promise.all([
      click(t, TwoPersonActionId.approve, card.id, SECOND),
      click(t, TwoPersonActionId.approve, card.id, SECOND),
    ]);
    const answers = [await a.waitForResponse(), await b.waitForResponse()].map((r) => String(r.body.text));
    expect(answers.filter((x) => x.includes('Approved:'))).toHaveLength(1);
    await t.settled();
    for (const u of ids) expect(asked(u)).toHaveLength(1);
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toHaveLength(1);

    // Pool 2001: one holder to ask, at or under the threshold: the round starts at once.
    const small = await (await t.command('reclaim 2001')).waitForResponse(
      (p) => !String(p.body.text).includes('Working'),
    );
    const go = buttons(small.body).find((x) => x.action_id === ReclaimActionId.startList);
    const started = await (await t.clickButton(ReclaimActionId.startList, String(go?.value))).waitForResponse();
    expect(allText(started.body.blocks)).not.toContain('second admin');
    await t.settled();
    expect(asked('U0TPHOLD04')).toHaveLength(1);
  });
});

describe('two-person rule: a reclaim round where nobody else can approve', () => {
  const t = appPerFile('desk-two-person-reclaim-alone-', (dataDir) =>
    startTestApp({ dataDir, admins: [ADMIN], reclaim: {}, twoPerson: { minRows: 1 } }),
  );

  it('asks its admin to send it alone: Do not send sends nothing; a forged Send by another admin is refused; Send it anyway starts it, audited', async () => {
    const p2003 = (await t.licensing.pools.allLicenses('2003')).filter((l) => l.active);
    const holders = ['3001', '3003'].map((id) => p2003.find((l) => l.student.id === id) as License);
    const ids = ['U0TPALON01', 'U0TPALON02'];
    for (const [i, l] of holders.entries()) holderInSlack(t.slack, ids[i] as string, l);
    const store = createProgressStore(t.records as NonNullable<typeof t.records>);
    await store.record(
      holders.map((l) => ({ ...observationOf(l, 0, null), active: true })),
      new Date(Date.now() - 60 * 86_400_000),
    );
    const startRound = async () => {
      const preview = await (await t.command('reclaim 2003')).waitForResponse(
        (p) => !String(p.body.text).includes('Working'),
      );
      const start = buttons(preview.body).find((b) => b.action_id === ReclaimActionId.startList);
      const asked = await (await t.clickButton(ReclaimActionId.startList, String(start?.value))).waitForResponse();
      expect(allText(asked.body.blocks)).toContain('Nobody else can approve this');
      return String(buttons(asked.body).find((b) => b.action_id === TwoPersonActionId.sendAlone)?.value);
    };
    const first = await startRound();
    const dropped = await (await click(t, TwoPersonActionId.dropAlone, first, ADMIN)).waitForResponse();
    expect(String(dropped.body.text)).toContain('Not sent');
    const second = await startRound();
    const forged = await (await click(t, TwoPersonActionId.sendAlone, second, TEST_USERS.viewer)).waitForResponse();
    expect(String(forged.body.text)).toContain('Only license admins');
    await t.settled();
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toEqual([]);
    const sent = await (await click(t, TwoPersonActionId.sendAlone, second, ADMIN)).waitForResponse();
    expect(String(sent.body.text)).toContain('Sent on your word alone');
    await t.settled();
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toHaveLength(1);
    const again = await (await click(t, TwoPersonActionId.sendAlone, second, ADMIN)).waitForResponse();
    expect(String(again.body.text)).toContain('already decided');
    const entries = await t.audit.recent(50);
    expect(entries.filter((e) => e.action === 'mass-change-alone')).toHaveLength(1);
  });
});
