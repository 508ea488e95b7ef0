/**
 * A new student is created with their name, never as the licensing service's default "Student":
 * an e-mail typed in the assign form without a name takes the Slack name of the member who has it;
 * an e-mail no member has gets a field error asking for the name (nothing sent); a course request's
 * approval and a waitlisted request given a freed seat send the requester's Slack name. Signed
 * requests in; the name is read back from the licensing sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeActionId, InputId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { assignState, openModal, settledView, submitKeepingAck, writes } from '../support/change-flow.js';
import { allText, buttons } from '../support/fixtures.js';
import { clickInRequestsChannel, poolOnlyRequestView, selfServiceTo, waitingForPool2003 } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const TYPED = { id: 'U0NAMETYP1', name: 'noah.price', realName: 'Noah Price', email: 'noah.price@contoso.com' };
const ASKER = { id: 'U0NAMEASK1', name: 'iris.bell', realName: 'Iris Bell', email: 'iris.bell@contoso.com' };
const WAITER = { id: 'U0NAMEWAI1', name: 'omar.fox', realName: 'Omar Fox', email: 'omar.fox@contoso.com' };

let t: TestApp;
const acks: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await startTestApp({
    admins: [TEST_USERS.admin],
    slack: { users: [TYPED, ASKER, WAITER] },
    ...selfServiceTo(CHANNEL),
  });
});

afterAll(async () => {
  await t?.close();
});

const nameAt = (email: string) => t.sandbox.inspect.student({ email })?.name;

describe('the assign form', () => {
  it("an e-mail a Slack member has, no name typed: the student is created with the member's Slack name", async () => {
    const view = await openModal(t, () => t.command('assign 2007'));
    const from = t.slack.calls.length;
    const { ack } = await submitKeepingAck(
      t,
      acks,
      view,
      assignState({ pool: '2007', email: TYPED.email, name: null }),
    );
    expect(ack.response_action).toBe('update');
    await settledView(t, view.id, from);
    expect(nameAt(TYPED.email)).toBe('Noah Price');
  });

  it('an e-mail no Slack member has, no name typed: the name field asks for it, and nothing is sent', async () => {
    const view = await openModal(t, () => t.command('assign 2007'));
    t.sandbox.clearRequests();
    const { ack } = await submitKeepingAck(
      t,
      acks,
      view,
      assignState({ pool: '2007', email: 'lena.outside@fabrikam.com', name: null }),
    );
    expect(ack.response_action).toBe('errors');
    const errors = ack.errors as Record<string, string>;
    expect(errors[InputId.assignName.block]).toContain('No Slack member has this e-mail');
    expect(errors[InputId.assignName.block]).toContain('type their name');
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.student({ email: 'lena.outside@fabrikam.com' })).toBeUndefined();
  });

  it('the same e-mail with the name typed is assigned under that name', async () => {
    const view = await openModal(t, () => t.command('assign 2007'));
    const from = t.slack.calls.length;
    const values = { pool: '2007', email: 'lena.outside@fabrikam.com', name: 'Lena Outside' };
    const { ack } = await submitKeepingAck(t, acks, view, assignState(values));
    expect(ack.response_action).toBe('update');
    await settledView(t, view.id, from);
    expect(nameAt('lena.outside@fabrikam.com')).toBe('Lena Outside');
  });
});

describe('course requests', () => {
  it("an approved request's license goes to a student named as the requester is in Slack", async () => {
    await t.viewSubmission({ view: poolOnlyRequestView('VNAMEASK01', '2005', 'command') }, { userId: ASKER.id });
    const card = await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${ASKER.id}>`),
    );
    const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
    const where = { channel: CHANNEL, ts: String(card.args.ts ?? '1767225600.000500') };
    const answer = await (
      await clickInRequestsChannel(t, where, RequestActionId.approve, id, TEST_USERS.admin)
    ).waitForResponse();
    expect(allText(answer.body.blocks)).toContain('Approved: license');
    expect(nameAt(ASKER.email)).toBe('Iris Bell');
  });

  it('a waitlisted request given a freed seat: the student is named as the requester is in Slack', async () => {
    await waitingForPool2003(t, 'r00000000f001', WAITER, new Date(Date.now() - 60_000));
    const seat = t.sandbox.inspect.licenses({ poolId: '2003' }).find((l) => l.active && l.revokable);
    if (!seat) throw new Error('no seat to free in pool 2003');
    const told = t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === `D${WAITER.id.slice(1)}` && allText(c.args.blocks).includes('it is yours'),
    );
    await t.clickButton(ChangeActionId.revokeConfirm, seat.id);
    await told;
    expect(nameAt(WAITER.email)).toBe('Omar Fox');
  });
});
