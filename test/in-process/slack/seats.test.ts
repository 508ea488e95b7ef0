/**
 * Seats through the app's listeners, without a process (listener harness): reclaim rounds (the
 * preview, Start, a holder's Keep and Release), the digest (`/licenses digest`, "Show holders"),
 * `/licenses history` (paging, Export) and App Home's "Return this seat". What a person sees and can
 * click, who is refused, and the licensing and Slack calls made. The signed-HTTP versions are
 * test/app/{reclaim,digest,history,progress}.test.ts.
 *
 * Seed (sandbox demo data): pool 2003 is transferable and full; its holders student 3005 (stalled at
 * 40 %) and 3003 (not started) are in Slack and are asked in a round; 3023 completed and is not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_CSV_HEADER } from '../../../src/history/services/history.js';
import {
  ActionId,
  ChangeActionId,
  DeskActionId,
  ReclaimActionId,
  RequestActionId,
} from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import type { License } from '../../../src/kernel/domain/types.js';
import { createProgressStore } from '../../../src/progress/db/store.js';
import { observationOf } from '../../../src/progress/domain/progress.js';
import type { RespondedRequest, TestApp } from '../../support/app-harness.js';
import { parseCsv } from '../../support/csv.js';
import { holderInSlack, isFinalReply, type SlackCall } from '../../support/fake-slack.js';
import { allText, buttons } from '../../support/fixtures.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';
import { clickReturnSeat } from '../../support/progress.js';
import { selfServiceTo } from '../../support/requests.js';
import { until } from '../../support/until.js';

const DAY = 86_400_000;
const ADMIN = TEST_USERS.admin;
const VIEWER = TEST_USERS.viewer;
const NOBODY = TEST_USERS.nobody;
const KEEPER = 'U0HOLDER00';
const LEAVER = 'U0HOLDER02';

let t: TestApp;
let dir: string;
const lic: Record<'keeper' | 'leaver' | 'done', License> = {} as never;

const final = async (r: RespondedRequest) => (await r.waitForResponse(isFinalReply)).body;
const dm = (user: string) => `D${user.slice(1)}`;
const dmsTo = (user: string): SlackCall[] =>
  t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === dm(user));
const deletes = () => t.sandbox.requests.filter((q) => q.method === 'DELETE');
const writes = () => t.sandbox.requests.filter((q) => q.method === 'POST' || q.method === 'DELETE');
const active = (id: string) => t.sandbox.inspect.license(id)?.active;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-seats-'));
  t = await startListenerApp({
    dataDir: dir,
    admins: [ADMIN],
    reclaim: {},
    ...selfServiceTo('C0SEATS001'),
    digest: { day: 'mon', time: '09:00', timeZone: 'UTC' },
  });
  const in2003 = (await t.licensing.pools.allLicenses('2003')).filter((l) => l.active);
  const of = (student: string) => {
    const l = in2003.find((x) => x.student.id === student);
    if (!l) throw new Error(`no 2003 license for student ${student}`);
    return l;
  };
  lic.keeper = of('3005');
  lic.leaver = of('3003');
  lic.done = of('3023');
  holderInSlack(t.slack, KEEPER, lic.keeper);
  holderInSlack(t.slack, LEAVER, lic.leaver);
  // Progress as the daily pass would have left it: one stalled, one not started, one completed.
  const store = createProgressStore(t.records as NonNullable<typeof t.records>);
  const now = Date.now();
  const obs = (l: License, progress: number, completed: string | null = null) => ({
    ...observationOf(l, progress, completed),
    active: true,
  });
  await store.record(
    [obs(lic.keeper, 40), obs(lic.leaver, 0), obs(lic.done, 100, new Date(now - 50 * DAY).toISOString())],
    new Date(now - 40 * DAY),
  );
}, 30_000);

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reclaim rounds', () => {
  const asks: Record<string, string> = {};

  it('the preview is refused to a viewer, with no holder named', async () => {
    const body = await final(await t.command('reclaim 2003', { userId: VIEWER }));
    expect(String(body.text)).toMatch(/admin/i);
    expect(JSON.stringify(body)).not.toContain(lic.keeper.student.name);
    expect(buttons(body)).toEqual([]);
  });

  it('the preview names who would be asked and offers the two Starts; it writes and sends nothing', async () => {
    const dmsBefore = t.slack.calls.filter((c) => c.method === 'chat.postMessage').length;
    const body = await final(await t.command('reclaim 2003'));
    const { text, buttons: ids } = seen(body);
    expect(text).toContain(lic.keeper.student.name);
    expect(text).toContain(lic.leaver.student.name);
    expect(text).not.toContain(lic.done.student.email);
    expect(text).toMatch(/2 holders would be asked/);
    expect(ids).toEqual([ReclaimActionId.startRelease, ReclaimActionId.startList]);
    expect(checkBlockKitLimits(body)).toEqual([]);
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toEqual([]);
    expect(t.slack.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(dmsBefore);
    expect(writes()).toEqual([]);
  });

  it('Start: a viewer is refused; an admin starts the round and each holder gets one ask by DM', async () => {
    const preview = await final(await t.command('reclaim 2003'));
    const start = buttons(preview).find((b) => b.action_id === ReclaimActionId.startRelease)?.value ?? '';
    const refused = await final(await t.clickButton(ReclaimActionId.startRelease, start, { userId: VIEWER }));
    expect(allText(refused)).toMatch(/admin/i);
    await t.settled();
    expect(await t.records?.db.selectFrom('reclaim_rounds').selectAll().execute()).toEqual([]);

    const started = await final(await t.clickButton(ReclaimActionId.startRelease, start));
    expect(allText(started)).toContain('2 holders asked');
    await t.settled();
    await until('the asks', () => dmsTo(KEEPER).length === 1 && dmsTo(LEAVER).length === 1);
    const ask = dmsTo(KEEPER)[0] as SlackCall;
    expect(allText(ask.args)).toContain('40 %');
    const seenAsk = seen(ask.args);
    expect(seenAsk.buttons).toEqual(expect.arrayContaining([ReclaimActionId.keep, ReclaimActionId.release]));
    for (const [who, id] of [
      ['keeper', KEEPER],
      ['leaver', LEAVER],
    ] as const)
      asks[who] = String(
        buttons((dmsTo(id)[0] as SlackCall).args).find((b) => b.action_id === ReclaimActionId.keep)?.value,
      );
    // The admin gets one message about the round.
    await until('the round message', () => dmsTo(ADMIN).some((c) => allText(c.args).includes('Asked 2')));
    expect(dmsTo(ADMIN).filter((c) => allText(c.args).includes('Asked 2'))).toHaveLength(1);
    expect(writes()).toEqual([]);
  });

  it('Keep: the holder keeps the seat, no licensing write; nobody else can answer their ask', async () => {
    const kept = await final(
      await t.clickButton(ReclaimActionId.keep, asks.keeper ?? '', { userId: KEEPER, channelId: dm(KEEPER) }),
    );
    expect(allText(kept)).toContain('you keep your seat');
    await until('the round message updated', () =>
      t.slack.calls.some((c) => c.method === 'chat.update' && allText(c.args).includes('kept 1')),
    );
    const other = await final(await t.clickButton(ReclaimActionId.release, asks.leaver ?? '', { userId: KEEPER }));
    expect(allText(other)).toContain('not for you');
    await t.settled();
    expect(writes()).toEqual([]);
    expect(active(lic.keeper.id)).toBe(true);
    expect(active(lic.leaver.id)).toBe(true);
  });

  it('Release: exactly one DELETE, of that seat; a second click changes nothing', async () => {
    const released = await final(
      await t.clickButton(ReclaimActionId.release, asks.leaver ?? '', { userId: LEAVER, channelId: dm(LEAVER) }),
    );
    expect(allText(released)).toContain('released');
    // "Ask for it again" opens the course request form for that pool.
    expect(buttons(released).map((b) => [b.action_id, b.value])).toEqual([[RequestActionId.openFor, '2003']]);
    await t.settled();
    expect(deletes().map((q) => q.url)).toEqual([`/v1/license/${lic.leaver.id}`]);
    expect(active(lic.leaver.id)).toBe(false);
    const again = await final(await t.clickButton(ReclaimActionId.release, asks.leaver ?? '', { userId: LEAVER }));
    expect(allText(again)).toContain('already released');
    await t.settled();
    expect(deletes()).toHaveLength(1);
  });
});

describe('the digest', () => {
  const charts = (body: Record<string, unknown>) =>
    (Array.isArray(body.blocks) ? (body.blocks as { type: string }[]) : []).filter(
      (b) => b.type === 'data_visualization',
    );

  it('/licenses digest: to the asker only, two charts, the seats used and the stalled holder by name', async () => {
    const r = await t.command('digest', { userId: VIEWER });
    const reply = (await r.waitForResponse((p) => charts(p.body).length > 0)).body;
    expect(reply.response_type).toBe('ephemeral');
    expect(charts(reply)).toHaveLength(2);
    expect(checkBlockKitLimits(reply)).toEqual([]);
    expect(String(reply.text)).toMatch(/[\d,]+ of [\d,]+ seats used/);
    expect(JSON.stringify(reply)).toContain(lic.keeper.student.email);
  });

  it('/licenses digest is refused to a member without a role', async () => {
    const body = await final(await t.command('digest', { userId: NOBODY }));
    expect(charts(body)).toEqual([]);
    expect(JSON.stringify(body)).toContain("don't have access");
    expect(JSON.stringify(body)).not.toContain(lic.keeper.student.email);
  });

  it('"Show holders": the names to a viewer privately; refused to a member without a role', async () => {
    const r = await t.clickButton(DeskActionId.digestShowHolders, 'digest', { userId: VIEWER });
    const reply = (await r.waitForResponse()).body;
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.replace_original).toBe(false);
    expect(checkBlockKitLimits(reply)).toEqual([]);
    expect(JSON.stringify(reply)).toContain(lic.keeper.student.email);
    const refused = (
      await (await t.clickButton(DeskActionId.digestShowHolders, 'digest', { userId: NOBODY })).waitForResponse()
    ).body;
    expect(JSON.stringify(refused)).toContain("don't have access");
    expect(JSON.stringify(refused)).not.toContain(lic.keeper.student.email);
  });
});

describe('App Home "Return this seat", then its history', () => {
  /** The click on App Home: no response_url, so every answer comes by DM. */
  /** Clicks "Return this seat" for `userId`; the DMs it brought them, and the DELETEs sent before it. */
  const returnSeat = async (licenseId: string, userId: string) => {
    const before = dmsTo(userId).length;
    const deleted = deletes().length;
    await clickReturnSeat(t, licenseId, { userId });
    await t.settled();
    return { dms: dmsTo(userId).slice(before), deleted };
  };

  it('a viewer is refused by DM and nothing is revoked', async () => {
    const { dms: told, deleted } = await returnSeat(lic.done.id, VIEWER);
    expect(told).toHaveLength(1);
    expect(allText((told[0] as SlackCall).args)).toMatch(/admin/i);
    expect(seen((told[0] as SlackCall).args).buttons).not.toContain(ChangeActionId.revokeConfirm);
    expect(deletes()).toHaveLength(deleted);
  });

  it('an admin gets the confirmation by DM; its Revoke now revokes once', async () => {
    const { dms: confirmation, deleted } = await returnSeat(lic.done.id, ADMIN);
    expect(confirmation).toHaveLength(1);
    const { text, buttons: ids } = seen((confirmation[0] as SlackCall).args);
    expect(text).toContain('Revoke license');
    expect(text).toContain(lic.done.student.name);
    expect(ids).toContain(DeskActionId.returnSeatConfirm);
    expect(deletes()).toHaveLength(deleted); // the confirmation writes nothing
    const clicked = await t.clickButton(DeskActionId.returnSeatConfirm, lic.done.id);
    expect(allText(await final(clicked))).toContain('Revoked');
    await t.clickButton(DeskActionId.returnSeatConfirm, lic.done.id, { responseId: clicked.responseId });
    await t.settled();
    expect(
      deletes()
        .slice(deleted)
        .map((q) => q.url),
    ).toEqual([`/v1/license/${lic.done.id}`]);
    expect(active(lic.done.id)).toBe(false);
  });

  const entriesOf = (body: Record<string, unknown>) =>
    (body.blocks as { type: string; text?: { text: string } }[])
      .filter((b) => b.type === 'section')
      .map((b) => b.text?.text ?? '');
  const buttonOf = (body: unknown, id: string) => buttons(body).find((b) => b.action_id === id);

  it('/licenses history shows the revoke, newest first, to the asker only, with Export', async () => {
    const body = await final(await t.command(`history ${lic.done.id}`, { userId: VIEWER }));
    expect(body.response_type).toBe('ephemeral');
    const entries = entriesOf(body);
    // The admin's revoke, and before it the viewer's refused click on Return this seat.
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain('*Revoked* (done)');
    expect(entries[0]).toContain(`by <@${ADMIN}>`);
    expect(entries[1]).toContain('*Revoked* (refused)');
    expect(entries[1]).toContain(`by <@${VIEWER}>`);
    expect(buttons(body).map((b) => b.action_id)).toEqual([ActionId.historyExport]);
    expect(checkBlockKitLimits(body)).toEqual([]);
  });

  it('more than ten entries: Next and Previous page through them; a member without a role is refused', async () => {
    for (let i = 0; i < 11; i += 1) {
      const body = await final(await t.command(`revoke ${lic.done.id}`, { userId: VIEWER }));
      expect(allText(body)).toContain('license admins');
    }
    await t.settled();
    const page1 = await final(await t.command(`history ${lic.done.id}`, { userId: VIEWER }));
    expect(entriesOf(page1)).toHaveLength(10);
    expect(entriesOf(page1)[0]).toContain('*Revoked* (refused)');
    const next = buttonOf(page1, ActionId.navNext);
    expect(next).toBeDefined();
    const page2 = await final(await t.clickButton(ActionId.navNext, next?.value ?? '', { userId: VIEWER }));
    expect(page2.replace_original).toBe(true);
    expect(entriesOf(page2)).toHaveLength(3);
    expect(allText(page2)).toContain('page 2 of 2');
    expect(buttonOf(page2, ActionId.navNext)).toBeUndefined();
    expect(entriesOf(page2).join('\n')).toContain('*Revoked* (done)');
    const back = await final(
      await t.clickButton(ActionId.navPrevious, buttonOf(page2, ActionId.navPrevious)?.value ?? '', { userId: VIEWER }),
    );
    expect(entriesOf(back)).toEqual(entriesOf(page1));
    const refused = await final(await t.clickButton(ActionId.navNext, next?.value ?? '', { userId: NOBODY }));
    expect(String(refused.text)).toContain("don't have access");
    expect(entriesOf(refused).join('\n')).not.toContain('Revoked');
  });

  it("Export: the whole history as one CSV in the clicker's DM; refused to a member without a role", async () => {
    const page1 = await final(await t.command(`history ${lic.done.id}`, { userId: VIEWER }));
    const value = buttonOf(page1, ActionId.historyExport)?.value ?? '';
    const refused = await final(await t.clickButton(ActionId.historyExport, value, { userId: NOBODY }));
    expect(String(refused.text)).toContain("don't have access");
    await t.settled();
    const before = t.slack.uploads.length;
    expect(before).toBe(0);
    const clicked = await t.clickButton(ActionId.historyExport, value, { userId: VIEWER });
    const answer = await final(clicked);
    expect(String(answer.text)).toMatch(/Sent: \d+ audit entries, as license-history-/);
    expect(clicked.responses().map((r) => r.body.replace_original)).toEqual([false]);
    await t.settled();
    expect(t.slack.uploads).toHaveLength(1);
    expect(t.slack.uploads[0]?.channelId).toMatch(/^D/);
    const open = t.slack.calls.filter((c) => c.method === 'conversations.open').at(-1);
    expect(open?.args.users).toBe(VIEWER);
    const csv = parseCsv((t.slack.uploads[0]?.content ?? '').replace(/^\uFEFF/, ''));
    expect(csv[0]).toEqual([...HISTORY_CSV_HEADER]);
    const sent = Number(/Sent: (\d+)/.exec(String(answer.text))?.[1]);
    // All 13 entries (both pages), newest first: the 11 refused commands, the admin's revoke, the
    // viewer's refused Return this seat.
    expect(sent).toBe(13);
    expect(csv.slice(1).map((r) => [r[1], r[3], r[4]])).toEqual([
      ...Array.from({ length: 11 }, () => [VIEWER, 'revoked', 'refused']),
      [ADMIN, 'revoked', 'done'],
      [VIEWER, 'revoked', 'refused'],
    ]);
  });
});
