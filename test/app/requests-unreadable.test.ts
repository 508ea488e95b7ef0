/**
 * One course request row that cannot be read (its JSON body cut short, or `null`, written straight
 * into the SQLite database) breaks no view: `/licenses waitlist` and the requester's `/licenses
 * requests` list the others, the row is named in a warning (its id, no student data), and Approve on
 * it says plainly that it cannot be read, never that it "no longer exists". Signed requests in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import type { Outbox, OutboxSender } from '../../src/kernel/services/outbox.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { clickInRequestsChannel, sampleRequest, selfServiceTo, waitingForPool2003 } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const ADA = { id: 'U0UNRADA01', email: 'ada.unread@contoso.com' };
const BEN = { id: 'U0UNRBEN01', email: 'ben.unread@contoso.com' };
const CY = { id: 'U0UNRCY001', email: 'cy.unread@contoso.com' };
const GOOD_WAITING = 'r00000000a001';
const CUT_WAITING = 'r00000000b002';
const GOOD_PENDING = 'r00000000c003';
const NULL_PENDING = 'r00000000d004';
const BEHIND = 'r00000000e005';

const t = appPerFile('requests-unreadable-', () =>
  startTestApp({
    admins: [TEST_USERS.admin],
    slack: { users: [{ ...CY, name: 'cy.unread', realName: 'Cy Unread' }] },
    ...selfServiceTo(CHANNEL),
  }),
);
beforeAll(async () => {
  const at = new Date(Date.now() - 3_600_000);
  await waitingForPool2003(t, GOOD_WAITING, ADA, at);
  await waitingForPool2003(t, CUT_WAITING, BEN, at);
  await waitingForPool2003(t, BEHIND, CY, at);
  await t.deps.requests?.store.put({ ...sampleRequest(GOOD_PENDING), courseTitle: 'Mastering DAX' });
  await t.deps.requests?.store.put({ ...sampleRequest(NULL_PENDING), poolId: '2001', courseTitle: 'Power BI' });
  // The damage, straight in the database: a body cut in the middle, and a body that is JSON `null`.
  const db = t.records?.db;
  if (!db) throw new Error('the harness has no records');
  const cut = await db.selectFrom('requests').select('body').where('id', '=', CUT_WAITING).executeTakeFirstOrThrow();
  await db
    .updateTable('requests')
    .set({ body: cut.body.slice(0, Math.floor(cut.body.length / 2)) })
    .where('id', '=', CUT_WAITING)
    .execute();
  await db.updateTable('requests').set({ body: 'null' }).where('id', '=', NULL_PENDING).execute();
});

/** The warnings that name `id`. */
const warningsAbout = (id: string) => t.logs.filter((l) => l.level === 'warn' && JSON.stringify(l).includes(id));

describe('a course request row that cannot be read', () => {
  it('/licenses waitlist lists the rest of the line, and the log names the unreadable row without student data', async () => {
    const reply = await (await t.command('waitlist 2003', { userId: TEST_USERS.admin })).waitForResponse(isFinalReply);
    const text = allText(reply.body.blocks);
    expect(text).toContain(`<@${ADA.id}>`);
    expect(text).not.toContain(BEN.id);
    const warned = warningsAbout(CUT_WAITING);
    expect(warned.length).toBeGreaterThan(0);
    expect(String(warned[0]?.message)).toContain('cannot be read');
    expect(JSON.stringify(warned)).not.toContain(BEN.email.split('@')[0]);
    // The one behind the unreadable row is number 2 there, and in their own list.
    const line = (await t.deps.waitlist?.entries('2003'))?.map((e) => [e.requestId, e.place]);
    expect(line).toEqual([
      [GOOD_WAITING, 1],
      [BEHIND, 2],
    ]);
    const mine = await (await t.command('requests', { userId: CY.id })).waitForResponse(isFinalReply);
    expect(allText(mine.body.blocks)).toContain('number 2 in line');
  });

  it("the requester's /licenses requests lists their other request", async () => {
    const reply = await (await t.command('requests', { userId: TEST_USERS.nobody })).waitForResponse(isFinalReply);
    const text = allText(reply.body.blocks);
    expect(text).toContain('Your course requests');
    expect(text).toContain('Mastering DAX');
    expect(text).not.toContain('Power BI');
    expect(warningsAbout(NULL_PENDING).length).toBeGreaterThan(0);
  });

  it('Approve on the unreadable request says it cannot be read, not that it no longer exists; nothing is sent', async () => {
    t.sandbox.clearRequests();
    const click = await clickInRequestsChannel(
      t,
      { channel: CHANNEL, ts: '1767225600.000900' },
      RequestActionId.approve,
      NULL_PENDING,
      TEST_USERS.admin,
    );
    const text = allText((await click.waitForResponse()).body.blocks);
    expect(text).toContain('cannot be read');
    expect(text).not.toContain('no longer exists');
    expect(t.sandbox.requests.filter((r) => r.method === 'POST')).toEqual([]);
    // The row is as it was: nothing wrote over it.
    const row = await t.records?.db
      .selectFrom('requests')
      .select(['body', 'status'])
      .where('id', '=', NULL_PENDING)
      .executeTakeFirst();
    expect(row).toEqual({ body: 'null', status: 'pending' });
  });

  it('a message queued about the unreadable request is dropped with a warning, never tried again and again', async () => {
    const db = t.records?.db;
    // The harness's outbox is the app's: it queues as well as sends.
    const outbox = t.outbox as (Outbox & OutboxSender) | undefined;
    if (!db || !outbox) throw new Error('the harness has no records');
    const key = `request:${CUT_WAITING}:test-notice`;
    await db
      .transaction()
      .execute((trx) =>
        outbox.enqueue(trx, { kind: 'request-changed', requestId: CUT_WAITING, status: 'waitlisted' }, key),
      );
    await outbox.flush();
    const row = await db.selectFrom('outbox').select(['state', 'attempts']).where('key', '=', key).executeTakeFirst();
    expect(row?.state).toBe('sent');
    expect(
      t.logs.some(
        (l) => String(l.message).includes('whose record cannot be read was dropped') && l.requestId === CUT_WAITING,
      ),
    ).toBe(true);
  });
});
