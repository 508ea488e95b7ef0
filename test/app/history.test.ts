/**
 * /licenses history end to end, through signed slash commands and clicks: changes an admin made
 * through the app (assign, two end-date changes, revoke) are shown for the student's e-mail newest
 * first, with who, what, the outcome and the old and new end; Next and Previous page through more
 * than ten entries; a viewer may look, a member without a role is refused; Export sends the whole
 * history as a CSV to the clicker's DM whose rows are the entries shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_CSV_HEADER } from '../../src/history/services/history.js';
import { ActionId, ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { decodeNav } from '../../src/kernel/blocks/nav.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { type RespondedRequest, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { assignState, extendState, openModal, submit, textOf } from '../support/change-flow.js';
import { parseCsv } from '../support/csv.js';
import type { ResponseUrlPost } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { testDatabases } from '../support/records.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const STUDENT = 'hedy.lamarr@contoso.com';
const ADMIN = TEST_USERS.admin;
const VIEWER = TEST_USERS.viewer;

let t: TestApp;
let closeDb: () => Promise<void>;
let licenseId = '';
let ends: string[] = [];

const isFinal = (p: ResponseUrlPost) => !String(p.body.text).includes('Working on it');
const final = async (r: RespondedRequest) => (await r.waitForResponse(isFinal, 15_000)).body;
const auditRows = () => t.records?.db.selectFrom('audit').selectAll().orderBy('id', 'desc').execute() ?? [];
/** The entries of a history message, each section's text, in the order shown. */
const entriesOf = (body: Record<string, unknown>) =>
  (body.blocks as { type: string; text?: { text: string } }[])
    .filter((b) => b.type === 'section')
    .map((b) => b.text?.text ?? '');
const buttonOf = (body: unknown, id: string) => buttons(body).find((b) => b.action_id === id);

beforeAll(async () => {
  const sqlite = testDatabases()[0];
  if (!sqlite) throw new Error('no SQLite test database');
  const db = await sqlite.open();
  closeDb = db.close;
  t = await startTestApp({ records: db.records });
  const poolEnd = Date.parse(t.sandbox.inspect.pool('2007')?.end ?? '');
  const day = (offset: number) =>
    new Date(Math.min(Date.now() + offset * DAY, poolEnd - DAY)).toISOString().slice(0, 10);

  // Assign through the form, as an admin does.
  const form = await openModal(t, () => t.command('assign 2007'));
  await submit(t, form, assignState({ pool: '2007', email: STUDENT, name: 'Hedy Lamarr', end: day(20) }));
  await until('the license assigned', () =>
    t.sandbox.inspect.licenses({ poolId: '2007' }).some((l) => l.student.email === STUDENT),
  );
  licenseId = t.sandbox.inspect.licenses({ poolId: '2007' }).find((l) => l.student.email === STUDENT)?.id ?? '';
  expect(licenseId).not.toBe('');
  await until('the assign audited', async () => (await auditRows()).length === 1);
  // Two end-date changes, through the modal.
  ends = [day(20), day(40), day(30)];
  for (const end of ends.slice(1)) {
    const count = (await auditRows()).length;
    const view = await openModal(t, () => t.command(`extend ${licenseId}`));
    await submit(t, view, extendState({ date: end }));
    await until('the end-date change audited', async () => (await auditRows()).length === count + 1);
  }
  // And the revoke, confirmed.
  await final(await t.command(`revoke ${licenseId}`));
  await t.clickButton(ChangeActionId.revokeConfirm, licenseId);
  await until('the revoke audited', async () => (await auditRows()).length === 4);
  await t.settled();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await closeDb?.();
});

describe('/licenses history', () => {
  it("a student's e-mail (any case): the changes made through the app, newest first, with who, what, outcome and ends", async () => {
    const body = await final(await t.command(`history ${STUDENT.toUpperCase()}`, { userId: ADMIN }));
    expect(checkBlockKitLimits(body)).toEqual([]);
    const entries = entriesOf(body);
    expect(entries).toHaveLength(4);
    expect(entries[0]).toContain(':white_check_mark: *Revoked* (done)');
    expect(entries[0]).toContain(`<@${ADMIN}> revoked license \`${licenseId}\``);
    expect(entries[1]).toContain('*End date changed* (done)');
    expect(entries[1]).toContain(`End date: ${dayText(ends[1] ?? '')} → ${dayText(ends[2] ?? '')}`);
    expect(entries[2]).toContain(`End date: ${dayText(ends[0] ?? '')} → ${dayText(ends[1] ?? '')}`);
    expect(entries[3]).toContain('*Assigned* (done)');
    for (const e of entries) {
      expect(e).toContain(`by <@${ADMIN}>`);
      expect(e).toMatch(/<!date\^\d+\^\{date_short\} at \{time\}\|/);
    }
    expect(String(body.text)).toContain(`History of ${STUDENT}`);
    // Only the asker sees it: the reply is ephemeral.
    expect(body.response_type).toBe('ephemeral');
    expect(buttons(body).map((b) => b.action_id)).toEqual([ActionId.historyExport]);
  });

  it('a window of days, a member, an unknown subject and a bad number of days', async () => {
    const recent = await final(await t.command(`history ${STUDENT} 1`));
    expect(entriesOf(recent)).toHaveLength(4);
    // One day reads as one day, never "the last 1 day".
    expect(textOf(recent.blocks)).toContain(' · the last day · ');
    expect(textOf(recent.blocks)).not.toContain('the last 1 day');
    const member = await final(await t.command(`history <@${ADMIN}|dana.lee>`, { userId: VIEWER }));
    expect(entriesOf(member).length).toBeGreaterThanOrEqual(4);
    expect(String(member.text)).toContain(`<@${ADMIN}> (and dana.lee@acme-learning.example)`);
    // A member whose e-mail Slack does not give: what they did and their requests, and why no more.
    const guest = await final(await t.command(`history <@${TEST_USERS.guest}|g>`));
    expect(textOf(guest.blocks)).toContain('entries made by <@U0GUEST001> or about their course requests, in');
    expect(textOf(guest.blocks)).toContain('no e-mail address I can see');
    const none = await final(await t.command('history nobody.here@contoso.com 30'));
    expect(String(none.text)).toBe(
      '[Sandbox] No audit entries found: I looked for entries whose student or requester e-mail is nobody.here@contoso.com, in the last 30 days.',
    );
    const bad = await final(await t.command(`history ${STUDENT} soon`));
    expect(textOf(bad.blocks)).toContain('“soon” is not a number of days');
    const empty = await final(await t.command('history'));
    expect(textOf(empty.blocks)).toContain(
      'Please say whose history to show, as in `/licenses history alberto.rossi@contoso.com`',
    );
  });

  it('more than ten entries: a viewer pages with Next and Previous, each entry once, newest first', async () => {
    // Eleven refused revokes by the viewer (no licensing call), on top of the admin's four.
    for (let i = 0; i < 11; i += 1) {
      const body = await final(await t.command(`revoke ${licenseId}`, { userId: VIEWER }));
      expect(textOf(body.blocks)).toContain('license admins');
    }
    await until('the refusals audited', async () => (await auditRows()).length === 15);
    const rows = await auditRows();
    const page1 = await final(await t.command(`history ${licenseId}`, { userId: VIEWER }));
    expect(entriesOf(page1)).toHaveLength(10);
    expect(textOf(page1.blocks)).toContain('page 1, more after');
    expect(entriesOf(page1)[0]).toContain(':no_entry_sign: *Revoked* (refused)');
    expect(entriesOf(page1)[0]).toContain(`by <@${VIEWER}>`);
    const next = buttonOf(page1, ActionId.navNext);
    expect(next).toBeDefined();
    const page2 = await final(await t.clickButton(ActionId.navNext, next?.value ?? '', { userId: VIEWER }));
    expect(entriesOf(page2)).toHaveLength(5);
    expect(textOf(page2.blocks)).toContain('page 2 of 2');
    expect(buttonOf(page2, ActionId.navNext)).toBeUndefined();
    // Page 2 ends with the oldest: the assign; together the pages are the 15 rows, newest first.
    expect(entriesOf(page2)[4]).toContain('*Assigned* (done)');
    const shown = [...entriesOf(page1), ...entriesOf(page2)].map((e) => e.split('\n')[0] ?? '');
    expect(shown).toHaveLength(rows.length);
    expect(shown.filter((s) => s.includes('(refused)'))).toHaveLength(11);
    const previous = buttonOf(page2, ActionId.navPrevious);
    expect(decodeNav(previous?.value)).toMatchObject({ view: 'history', page: 1 });
    const back = await final(await t.clickButton(ActionId.navPrevious, previous?.value ?? '', { userId: VIEWER }));
    expect(entriesOf(back)).toEqual(entriesOf(page1));
  });

  it('a member without a role is refused, by command and by button', async () => {
    const body = await final(await t.command(`history ${STUDENT}`, { userId: TEST_USERS.nobody }));
    expect(String(body.text)).toContain("don't have access");
    expect(JSON.stringify(body)).not.toContain(STUDENT);
    const page1 = await final(await t.command(`history ${licenseId}`, { userId: VIEWER }));
    const next = buttonOf(page1, ActionId.navNext);
    const clicked = await final(
      await t.clickButton(ActionId.navNext, next?.value ?? '', { userId: TEST_USERS.nobody }),
    );
    expect(String(clicked.text)).toContain("don't have access");
    expect(entriesOf(clicked).join('\n')).not.toContain('Revoked');
    const exported = await final(
      await t.clickButton(ActionId.historyExport, next?.value ?? '', { userId: TEST_USERS.nobody }),
    );
    expect(String(exported.text)).toContain("don't have access");
  });

  it("Export: the whole history (all pages) as a CSV in the clicker's DM, its rows the entries shown", async () => {
    const page1 = await final(await t.command(`history ${licenseId}`, { userId: VIEWER }));
    const before = t.slack.uploads.length;
    const exportButton = buttonOf(page1, ActionId.historyExport);
    const clicked = await t.clickButton(ActionId.historyExport, exportButton?.value ?? '', { userId: VIEWER });
    const answer = await final(clicked);
    expect(String(answer.text)).toContain('Sent: 15 audit entries, as license-history-');
    // A new message under the history, which stays as it was.
    expect(clicked.responses().map((r) => r.body.replace_original)).toEqual([false]);
    const upload = t.slack.uploads[before];
    expect(upload?.channelId).toMatch(/^D/);
    // The sandbox's history says so in its DM, as the license export's does.
    expect(upload?.initialComment).toMatch(/^\[Sandbox data, not real licenses\] License Desk history of /);
    const open = t.slack.calls.filter((c) => c.method === 'conversations.open').at(-1);
    expect(open?.args.users).toBe(VIEWER);
    const csv = parseCsv((upload?.content ?? '').replace(/^\uFEFF/, ''));
    expect(csv[0]).toEqual([...HISTORY_CSV_HEADER]);
    // The license's rows (the refused `history` typed by a member without a role is not about it).
    const rows = (await auditRows()).filter((r) => r.license_id === licenseId);
    expect(csv.slice(1).map((r) => r[0])).toEqual(rows.map((r) => JSON.parse(r.body).at));
    const [revoked, laterEnd, earlierEnd, assigned] = csv.slice(-4);
    expect(revoked?.slice(1, 8)).toEqual([ADMIN, 'Dana Lee', 'revoked', 'done', licenseId, '2007', STUDENT]);
    expect(laterEnd?.slice(3, 10)).toEqual(['end date changed', 'done', licenseId, '2007', STUDENT, ends[1], ends[2]]);
    expect(earlierEnd?.slice(8, 10)).toEqual([ends[0], ends[1]]);
    expect(assigned?.slice(3, 5)).toEqual(['assigned', 'done']);
    expect(csv[1]?.slice(1, 5)).toEqual([VIEWER, 'Sam Ortiz', 'revoked', 'refused']);
    expect(csv[1]?.[10]).toBe('not a license admin (command)');
  });
});
