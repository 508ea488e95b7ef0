/**
 * Leavers through the real boundaries: Slack's `user_change` event signed and posted to the app, the
 * sandbox as the licensing API, the fake Slack recording the alert channel's posts, App Home and the
 * lookups. The app's clock is injected and moved past the grace.
 *
 * Seed (sandbox demo data): pools 2001 (transferable), 2002 (untransferable), 2003 (transferable, full).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditSentence } from '../../src/kernel/domain/audit-sentence.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { settableClock } from '../support/clock.js';
import { dmChannel } from '../support/dms.js';
import { holderInSlack, type SlackCall, TEST_USERS } from '../support/fake-slack.js';
import { allText, callText } from '../support/fixtures.js';
import { deactivate, holdersOf, pickHolder, reactivate } from '../support/leavers.js';
import { openHome, progressPassOn } from '../support/progress.js';
import { waitingForPool2003 } from '../support/requests.js';
import { until } from '../support/until.js';

const ALERTS = 'C0ALERTS01';
const WAITER = { id: 'U0WAIT0002', name: 'wendy.wait', email: 'wendy.wait@contoso.com' };
const text = callText;

const testClock = settableClock;

describe('leavers', () => {
  const { c: clock, now } = testClock();
  const t0 = clock.t;
  const t = appPerFile('desk-leavers-', (dataDir) =>
    startTestApp({
      dataDir,
      now,
      waitlist: { offers: { hours: 0 } },
      leavers: { channel: ALERTS },
      slack: { users: [WAITER] },
    }),
  );
  const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
  const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
  let leaver: License[] = [];
  let back: License[] = [];
  const LEAVER = 'U0LEAVE001';
  const BACK = 'U0BACK0001';

  beforeAll(async () => {
    // Pools 2001 and 2002 share a course: the leaver holds none of it yet.
    leaver = pickHolder(t, t0, '2003', undefined, [], ['2001', '2002']);
    // The leaver holds a seat of the untransferable pool too.
    const first = leaver[0] as License;
    if (!leaver.some((l) => l.poolId === '2002'))
      leaver = [
        ...leaver,
        await t.licensing.pools.assign('2002', { email: first.student.email, name: first.student.name }),
      ];
    back = pickHolder(t, t0, '2001', undefined, [leaver[0]?.student.email ?? ''], ['2003']);
    holderInSlack(t.slack, LEAVER, leaver[0] as License);
    holderInSlack(t.slack, BACK, back[0] as License);
  });

  it('a deactivation puts the licenses on hold: the alert channel is told once, App Home lists them for admins', async () => {
    const email = (leaver[0] as License).student.email;
    // The event without an e-mail in its profile: License Desk asks users.info.
    expect((await deactivate(t, LEAVER)).status).toBe(200);
    await t.settled();
    await until('the alert channel is told', () => posts().length === 1);
    const post = text(posts()[0] as SlackCall);
    expect(post).toContain(`<@${LEAVER}> left the workspace`);
    expect(post).toMatch(/on hold until \w{3} \d{1,2}, 2026/);
    for (const l of leaver) expect(post).toContain(l.id);
    expect(post).toContain('untransferable pool, only listed (not returned)');
    expect(post).not.toContain(email);
    expect(post).not.toContain((leaver[0] as License).student.name);
    // Slack sends it again (a retry): nothing more.
    await deactivate(t, LEAVER, email);
    await t.settled();
    expect(posts()).toHaveLength(1);

    const view = allText((await openHome(t, TEST_USERS.admin)).args.view);
    expect(view).toContain('Leavers’ seats');
    for (const l of leaver) expect(view).toContain(l.id);
    expect(view).toContain(`<@${LEAVER}>`);
    // A viewer's App Home has no such section.
    expect(allText((await openHome(t, TEST_USERS.viewer)).args.view)).not.toContain('Leavers’ seats');
    expect(deletes()).toEqual([]);
  });

  it('a reactivation within the grace cancels the hold, said once in the alert channel', async () => {
    const email = (back[0] as License).student.email;
    await deactivate(t, BACK, email);
    await t.settled();
    await until('the hold is told', () => posts().some((p) => text(p).includes(`<@${BACK}> left the workspace`)));
    await reactivate(t, BACK, email);
    await reactivate(t, BACK, email);
    await t.settled();
    await until('the cancel is told', () => posts().some((p) => text(p).includes(`<@${BACK}> is back`)));
    await t.outbox?.flush();
    expect(posts().filter((p) => text(p).includes(`<@${BACK}> is back`))).toHaveLength(1);
    expect(text(posts().find((p) => text(p).includes('is back')) as SlackCall)).toContain('nothing is returned');
  });

  it('a deactivation of someone who holds nothing is only logged', async () => {
    const before = posts().length;
    t.slack.setUser({ id: 'U0NOSEAT01', name: 'nils', email: 'nils.noseat@contoso.com' });
    await deactivate(t, 'U0NOSEAT01', 'nils.noseat@contoso.com');
    await t.settled();
    expect(posts()).toHaveLength(before);
    expect(t.logs.some((l) => String(l.msg ?? l.message).includes('holds no license'))).toBe(true);
    // A profile change of an active member without a hold does nothing either.
    await reactivate(t, TEST_USERS.viewer, 'sam.ortiz@acme-learning.example');
    await t.settled();
    expect(posts()).toHaveLength(before);
  });

  it('after the grace: one revoke per seat of a transferable pool, audited, the waitlist handed the seat; untransferable seats only listed', async () => {
    await waitingForPool2003(t, 'R-LEAVER-1', WAITER, now());
    const before = posts().length;
    clock.t += 6 * DAY_MS;
    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0 });
    clock.t += DAY_MS + 60_000;
    const run = await t.leavers?.runReturns();
    const transferable = leaver.filter((l) => l.poolId !== '2002');
    const untransferable = leaver.filter((l) => l.poolId === '2002');
    expect(run).toMatchObject({ returned: transferable.length, listed: untransferable.length, failed: 0 });
    expect(deletes().sort()).toEqual(transferable.map((l) => `/v1/license/${l.id}`).sort());
    for (const l of untransferable) expect(t.sandbox.inspect.license(l.id)?.active).toBe(true);
    // The reactivated member kept everything.
    for (const l of back) expect(t.sandbox.inspect.license(l.id)?.active).toBe(true);

    const entries = (await t.audit.recent(100)).filter((e) => e.action === 'leaver-returned');
    expect(entries.map((e) => e.licenseId).sort()).toEqual(transferable.map((l) => l.id).sort());
    for (const e of entries) {
      expect(e).toMatchObject({ actor: 'license-desk', outcome: 'done' });
      expect(auditSentence(e, { emails: false })).toMatch(
        /^License Desk returned license `\d+` .*\(returned: left the workspace\)$/,
      );
    }
    // The seat freed in 2003 went to the first in line, who was told.
    await until('the waiter holds a 2003 license', () =>
      t.sandbox.inspect.licenses({ poolId: '2003' }).some((l) => l.active && l.student.email === WAITER.email),
    );
    await until('the waiter is told', () =>
      t.slack.calls.some((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(WAITER.id)),
    );
    // One post for the run: what was returned and what is only listed.
    await until('the returns post', () => posts().length === before + 1);
    const post = text(posts().at(-1) as SlackCall);
    expect(post).toContain(`Returned ${transferable.length} seat`);
    expect(post).toContain('untransferable pools, only listed');
    for (const l of untransferable) expect(post).toContain(l.id);

    // Again: nothing more is sent or posted.
    expect(await t.leavers?.runReturns()).toMatchObject({ returned: 0, listed: 0 });
    await t.settled();
    expect(deletes()).toHaveLength(transferable.length);
    expect(posts()).toHaveLength(before + 1);
    // App Home still lists the untransferable seat, no longer the returned ones.
    const view = allText((await openHome(t, TEST_USERS.admin)).args.view);
    const section = view.slice(view.indexOf('Leavers’ seats'));
    for (const l of untransferable) expect(section).toContain(`license \`${l.id}\`, untransferable pool: only listed`);
    for (const l of transferable) expect(section).not.toContain(l.id);
  });
});

describe('leavers: the weekly sweep', () => {
  const { now } = testClock();
  const waits: number[] = [];
  const t = appPerFile('desk-leavers-sweep-', (dataDir) =>
    startTestApp({
      dataDir,
      now,
      waitlist: { offers: { hours: 0 } },
      leavers: { channel: ALERTS, sweep: { paceMs: 1200, wait: async (ms) => void waits.push(ms) } },
    }),
  );
  const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
  const lookups = () => t.slack.calls.filter((c) => c.method === 'users.lookupByEmail');

  it('catches a deactivation missed while the app was down, with paced lookups that honour a 429', async () => {
    expect(await progressPassOn(t, now).run()).toMatchObject({ kind: 'done' });
    const holders = holdersOf(t, now().getTime() - 365 * DAY_MS);
    const emails = [
      ...new Set(
        t.sandbox.inspect
          .licenses()
          .filter((l) => l.active)
          .map((l) => l.student.email),
      ),
    ];
    // Every holder is an active member but one, deactivated while License Desk was down.
    const gone = pickHolder(t, now().getTime(), '2001');
    const goneEmail = (gone[0] as License).student.email;
    let n = 0;
    for (const l of t.sandbox.inspect.licenses().filter((x) => x.active && x.student.email !== goneEmail))
      holderInSlack(t.slack, `U0H${String(++n).padStart(7, '0')}`, l);
    const goneId = 'U0GONE0001';
    t.slack.setUser({ id: goneId, name: 'gone', email: goneEmail, deleted: true });
    // Slack says "slow down" once, for 2 s.
    t.slack.answer('users.lookupByEmail', { status: 429, retryAfterSec: 2 }, 1);

    const report = await t.leavers?.runSweep();
    expect(holders.size).toBeGreaterThan(0);
    expect(report).toMatchObject({ holders: emails.length, found: 1, held: 1, rateLimited: 1, failed: 0 });
    // One lookup per holder, plus the one retried after the 429.
    expect(lookups()).toHaveLength(emails.length + 1);
    expect(report?.slackRequests).toBe(emails.length + 1);
    // Paced: 1.2 s before every lookup but the first, and the Retry-After waited out once.
    expect(waits.filter((w) => w === 2000)).toHaveLength(1);
    expect(waits.filter((w) => w === 1200)).toHaveLength(emails.length);
    await t.settled();
    await until('the alert channel is told', () => posts().length === 1);
    const post = text(posts()[0] as SlackCall);
    expect(post).toContain(`<@${goneId}> left the workspace (found by the weekly sweep)`);
    for (const l of gone) expect(post).toContain(l.id);
    // A second sweep holds nothing twice.
    expect(await t.leavers?.runSweep()).toMatchObject({ found: 1, held: 0 });
    await t.settled();
    expect(posts()).toHaveLength(1);
  });
});

describe('leavers: LEAVER_GRACE_DAYS=off', () => {
  const { c: clock, now } = testClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now, waitlist: {}, leavers: { on: false, channel: ALERTS } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a deactivation holds nothing and nothing is returned', async () => {
    const l = pickHolder(t, clock.t, '2001');
    holderInSlack(t.slack, 'U0OFF00001', l[0] as License);
    await deactivate(t, 'U0OFF00001', (l[0] as License).student.email);
    await t.settled();
    clock.t += 30 * DAY_MS;
    expect(await t.leavers?.runReturns()).toBeUndefined();
    expect(await t.leavers?.runSweep()).toBeUndefined();
    await t.settled();
    expect(t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS)).toEqual([]);
    expect(t.sandbox.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(t.slack.calls.filter((c) => c.method === 'users.lookupByEmail')).toEqual([]);
  });
});
