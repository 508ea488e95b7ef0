/**
 * The automatic return of finished seats through the real boundaries: the sandbox (licensing API on
 * loopback) holds known progress, daily progress passes read it through the licensing client and, once
 * complete, hand over to the automatic return (the pass's `afterPass`, as main.ts wires it); the fake
 * Slack answers users.lookupByEmail and records the DMs and the alert channel's post. The app's clock
 * is injected and moved forward day by day.
 *
 * Seed (sandbox demo data): pools 2001 (transferable, course 301), 2002 (untransferable, course 301),
 * 2003 (transferable and full, course 302).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { auditSentence } from '../../src/kernel/domain/audit-sentence.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import type { Outbox, OutboxSender } from '../../src/kernel/services/outbox.js';
import { createIntents } from '../../src/kernel/services/writes/intents.js';
import { registerWriteSettlers } from '../../src/kernel/services/writes/settle.js';
import { createProgressReturns } from '../../src/progress/db/returns.js';
import type { AutoReturnRun } from '../../src/progress/services/auto-return.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { settableClock } from '../support/clock.js';
import { dmChannel } from '../support/dms.js';
import { holderInSlack, type SlackCall } from '../support/fake-slack.js';
import { buttons, callText } from '../support/fixtures.js';
import { progressPassOn, returnCandidate } from '../support/progress.js';
import { waitingForPool2003 } from '../support/requests.js';
import { until } from '../support/until.js';

const ALERTS = 'C0ALERTS01';
const WAITER = { id: 'U0WAIT0002', name: 'wendy.wait', email: 'wendy.wait@contoso.com' };
const text = callText;

const testClock = settableClock;

/** Active licenses of a pool that run well past the days these tests move the clock. */
function longHolders(t: TestApp, poolId: string, from: number): License[] {
  return t.sandbox.inspect
    .licenses({ poolId })
    .filter((l) => l.active && Date.parse(l.end) > from + 90 * DAY_MS)
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** When the last complete pass started (what its after-work was given). */
let lastStarted = '';

function passOf(t: TestApp, now: () => Date, after?: (run: AutoReturnRun | undefined) => void) {
  return progressPassOn(t, now, async (pass) => {
    lastStarted = pass.startedAt;
    after?.(await t.autoReturn?.afterPass(pass));
  });
}

describe('automatic return of finished seats, on', () => {
  const { c: clock, now } = testClock();
  const t0 = clock.t;
  let t: TestApp;
  let last: AutoReturnRun | undefined;
  const pass = () => passOf(t, now, (run) => (last = run));
  /** A, B in 2003; C, G in 2001 (G not in Slack): completed on day 0. F in 2003 completes on day 5. */
  const lic: Record<'A' | 'B' | 'C' | 'G' | 'F' | 'E' | 'D' | 'H' | 'J', License> = {} as never;
  const users: Record<string, string> = {};
  const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
  const dmsTo = (user: string) =>
    t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(user));
  const channelPosts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
  const set = (l: License, progress: number, completed: string | null = null) =>
    t.sandbox.setProgress?.({ email: l.student.email }, l.courseId, { progress, completed });
  const completedAt = () => new Date(clock.t - 3_600_000).toISOString().replace('Z', '+00:00');

  beforeAll(async () => {
    t = await startTestApp({
      now,
      waitlist: { offers: { hours: 0 } },
      autoReturn: { on: true, afterDays: 7, max: 3, channel: ALERTS },
      slack: { users: [WAITER] },
    });
    const p2003 = longHolders(t, '2003', t0);
    const p2001 = longHolders(t, '2001', t0).filter((l) => !p2003.some((x) => x.student.id === l.student.id));
    const p2002 = longHolders(t, '2002', t0);
    [lic.A, lic.B, lic.F, lic.E] = p2003 as [License, License, License, License];
    [lic.C, lic.G, lic.H, lic.J] = p2001 as [License, License, License, License];
    lic.D = p2002[0] as License;
    for (const l of Object.values(lic)) if (!l) throw new Error('the demo seed changed: not enough long licenses');
    for (const key of ['A', 'B', 'C', 'F', 'D', 'H', 'J'] as const) {
      const l = lic[key];
      const id = `U0HOLD${key}${l.student.id}`.slice(0, 11);
      users[key] = id;
      holderInSlack(t.slack, id, l);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('returns nothing before the completion is PROGRESS_RETURN_AFTER_DAYS old', async () => {
    // The demo seed has finished courses of its own: every other holder is at 10 % here.
    for (const l of t.sandbox.inspect.licenses()) if (l.active) set(l, 10);
    for (const k of ['A', 'B', 'G', 'D'] as const) set(lic[k], 100, completedAt());
    // C reaches 100 % with no completion date from the service: the day is License Desk's own observation.
    set(lic.C, 100);
    set(lic.F, 70);
    set(lic.E, 40);
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 0, failed: 0 });
    clock.t += 5 * DAY_MS;
    set(lic.F, 100, completedAt());
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 0 });
    expect(deletes()).toEqual([]);
  });

  it('after a complete pass: one DELETE per due license of a transferable pool, capped, the oldest first; each holder told once; the waiting request gets the seat; one channel post with counts', async () => {
    // An approved request waiting for the full pool 2003.
    await waitingForPool2003(t, 'R-AUTO-1', WAITER, now());

    clock.t += 3 * DAY_MS; // day 8: A, B, C, G are 8 days old (4 due, the cap is 3); F is 3 days old
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 3, failed: 0 });
    const first = deletes();
    expect(first).toHaveLength(3);
    expect(new Set(first).size).toBe(3);
    const due = [lic.A, lic.B, lic.C, lic.G].map((l) => `/v1/license/${l.id}`);
    for (const url of first) expect(due).toContain(url);
    for (const l of [lic.D, lic.E, lic.F]) expect(first).not.toContain(`/v1/license/${l.id}`);
    for (const url of first) expect(t.sandbox.inspect.license(url.split('/').at(-1) ?? '')?.active).toBe(false);

    // The waiting request got the first seat freed in 2003, and its requester was told.
    await until('the waiter holds a 2003 license', () =>
      t.sandbox.inspect.licenses({ poolId: '2003' }).some((l) => l.active && l.student.email === WAITER.email),
    );
    await until('the waiter is told', () => dmsTo(WAITER.id).length > 0);

    // Each returned holder in Slack got one DM: the course, that it was completed, how to ask again.
    await t.outbox?.flush();
    const returnedKeys = (['A', 'B', 'C', 'G'] as const).filter((k) => first.includes(`/v1/license/${lic[k].id}`));
    expect(returnedKeys).toContain('C');
    for (const k of returnedKeys) {
      if (k === 'G') continue; // not in Slack: nobody to tell
      await until(`holder ${k} is told`, () => dmsTo(users[k] ?? '').length > 0);
      const dms = dmsTo(users[k] ?? '');
      expect(dms).toHaveLength(1);
      const words = text(dms[0] as SlackCall);
      expect(words).toContain(k === 'C' ? 'Mastering DAX' : 'Optimizing DAX');
      if (k === 'C') {
        expect(words).toMatch(/since we saw it completed on \w{3} \d{1,2}, 2026/);
        expect(words).not.toContain('you completed it');
      } else expect(words).toMatch(/since you completed it on \w{3} \d{1,2}, 2026/);
      expect(words).toContain('course request');
      expect(buttons((dms[0] as SlackCall).args).map((b) => [b.action_id, b.value])).toEqual([
        [RequestActionId.openFor, lic[k].poolId],
      ]);
    }

    // The audit trail: License Desk returned it, with the completion day, for each DELETE.
    const entries = await t.audit.recent(200);
    const returned = entries.filter((e) => e.action === 'auto-returned');
    expect(returned).toHaveLength(3);
    for (const e of returned) {
      expect(e).toMatchObject({ actor: 'license-desk', outcome: 'done' });
      expect(first).toContain(`/v1/license/${e.licenseId}`);
      expect(auditSentence(e, { emails: false })).toMatch(
        /^License Desk returned license `\d+` of \*.+\* for \*.+DAX\* \(completed on \w{3} \d{1,2}, 2026, automatic return\)$/,
      );
    }
    expect(entries.filter((e) => e.action === 'revoke')).toEqual([]);

    // One post in the alert channel: counts only, no student.
    await until('the channel post', () => channelPosts().length === 1);
    const post = text(channelPosts()[0] as SlackCall);
    // Each pool named with its course.
    expect(post).toMatch(
      /Returned 3 seats of finished courses: \*[^*]+\* \(pool `200[13]`\): \d, \*[^*]+\* \(pool `200[13]`\): \d\./,
    );
    for (const l of Object.values(lic)) {
      expect(post).not.toContain(l.student.email);
      expect(post).not.toContain(l.student.name);
    }
  });

  it('a second run after the same pass, and the next pass, return nothing twice; the one over the cap goes next; young completions wait', async () => {
    const before = deletes();
    // The same pass's work again (a retry): nothing more, its cap is spent.
    expect(await t.autoReturn?.afterPass({ startedAt: lastStarted })).toMatchObject({ returned: 0 });
    expect(deletes()).toEqual(before);

    clock.t += DAY_MS; // day 9: the fourth of day 0 is returned now; F (4 days) still waits
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 1 });
    const after = deletes();
    expect(after).toHaveLength(4);
    expect(new Set(after)).toEqual(new Set([lic.A, lic.B, lic.C, lic.G].map((l) => `/v1/license/${l.id}`)));

    clock.t += 3 * DAY_MS; // day 12: F's completion is 7 days old
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 1 });
    expect(deletes().slice(4)).toEqual([`/v1/license/${lic.F.id}`]);
    // Never the untransferable pool's, never the unfinished one.
    expect(deletes()).not.toContain(`/v1/license/${lic.D.id}`);
    expect(deletes()).not.toContain(`/v1/license/${lic.E.id}`);
    // Each holder in Slack was told once, whatever ran since.
    await t.settled();
    for (const k of ['A', 'B', 'C', 'F'] as const) expect(dmsTo(users[k] ?? '')).toHaveLength(1);
    expect(dmsTo(users.D ?? '')).toEqual([]);
    expect(channelPosts()).toHaveLength(3);
  });

  it('after a kill mid-return the restart settles the truth: no second DELETE, the holder told once', async () => {
    if (!t.records || !t.settler) throw new Error('no records');
    const records = t.records;
    const returns = createProgressReturns(records);
    const candidate = (l: License) => returnCandidate(l, now());
    // H: claimed, its intent recorded, the DELETE went through, and the process died before the rest.
    expect(await returns.claim(candidate(lic.H), now().toISOString(), now(), new Date(clock.t + 60_000))).toBe(true);
    await records.db
      .insertInto('intents')
      .values({
        id: 'w-killed-auto-return',
        kind: 'revoke',
        owner: 'license-desk',
        subject: lic.H.id,
        pool_id: lic.H.poolId,
        instance: 'a-process-that-died',
        state: 'open',
        created_at: now().toISOString(),
        settled_at: null,
        body: JSON.stringify({
          license: lic.H,
          courseTitle: 'Mastering DAX',
          as: { action: 'auto-returned', completedOn: now().toISOString().slice(0, 10) },
        }),
        outcome: null,
      })
      .execute();
    await t.licensing.licenses.revoke(lic.H.id);
    // J: claimed, and the process died before anything was sent.
    expect(await returns.claim(candidate(lic.J), now().toISOString(), now(), new Date(clock.t + 60_000))).toBe(true);
    const sent = deletes().length;

    // The restart: the claims have run out; the read-back waits for the settler to settle H's intent.
    clock.t += 120_000;
    expect(await t.autoReturn?.service.resume()).toBe(1); // J: revoked now, once
    expect(deletes().slice(sent)).toEqual([`/v1/license/${lic.J.id}`]);
    registerWriteSettlers(t.settler, {
      licensing: t.licensing,
      audit: t.audit,
      records,
      intents: createIntents(records, now),
      outbox: t.outbox as unknown as Outbox & OutboxSender,
      now,
    });
    expect(await t.settler.runOnce()).toBe(1);
    expect(await t.autoReturn?.service.resume()).toBe(0); // H's claim is this process's for a while
    clock.t += 10 * 60_000;
    expect(await t.autoReturn?.service.resume()).toBe(1); // H: read back as returned, nothing sent
    expect(await t.autoReturn?.service.resume()).toBe(0);
    expect(deletes().slice(sent)).toEqual([`/v1/license/${lic.J.id}`]);
    expect(await returns.get(lic.H.id)).toMatchObject({ state: 'returned' });
    expect(await returns.get(lic.J.id)).toMatchObject({ state: 'returned' });

    await t.settled();
    for (const k of ['H', 'J'] as const) {
      await until(`holder ${k} is told`, () => dmsTo(users[k] ?? '').length > 0);
      expect(dmsTo(users[k] ?? '')).toHaveLength(1);
    }
    // The audit trail reads true: each returned once, by License Desk; H's settled after the restart.
    const entries = (await t.audit.recent(200)).filter((e) => e.licenseId === lic.H.id || e.licenseId === lic.J.id);
    expect(entries.map((e) => [e.licenseId, e.action, e.actor, e.outcome]).sort()).toEqual(
      [
        [lic.H.id, 'auto-returned', 'license-desk', 'done'],
        [lic.J.id, 'auto-returned', 'license-desk', 'done'],
      ].sort(),
    );
    expect(entries.find((e) => e.licenseId === lic.H.id)?.detail).toContain('settled after a restart');
    // Nobody is sent a "settled write" DM for License Desk's own write.
    const queued = await records.db.selectFrom('outbox').select('body').execute();
    expect(queued.filter((r) => r.body.includes('settled-write'))).toEqual([]);
  });
});

describe('automatic return of finished seats, off (the default)', () => {
  const { c: clock, now } = testClock();
  const t = appPerFile('auto-return-', () =>
    startTestApp({ now, waitlist: { offers: { hours: 0 } }, autoReturn: { channel: ALERTS } }),
  );

  it('revokes nothing, however old the completions', async () => {
    const holders = longHolders(t, '2003', clock.t).slice(0, 3);
    for (const l of holders)
      t.sandbox.setProgress?.({ email: l.student.email }, l.courseId, {
        progress: 100,
        completed: now().toISOString(),
      });
    let run: AutoReturnRun | undefined | 'not run' = 'not run';
    const pass = () => passOf(t, now, (r) => (run = r));
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    clock.t += 30 * DAY_MS;
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(run).toBeUndefined();
    await t.settled();
    expect(t.sandbox.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS)).toEqual([]);
    expect(await t.records?.db.selectFrom('progress_returns').selectAll().execute()).toEqual([]);
  });
});
