/**
 * Who approves, end to end through signed requests and the fake Slack: a pool's card goes to its
 * approvers (a test resolver gives pool 2005 an admin of its own), else to the owners; an approver's
 * away delegation sends the cards to the delegate, whose decision is audited "for" the approver; a
 * delegate without a role waits for an owner's yes; the delegation ends by itself after its last day;
 * and every bad input is refused with one sentence.
 */
import { describe, expect, it } from 'vitest';
import { ApproverActionId, ApproverCallbackId, ApproverInputId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { auditSentence } from '../../src/kernel/domain/audit-sentence.js';
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { settableClock } from '../support/clock.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { slackMember } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { requestFormView, selfServiceTo } from '../support/requests.js';

const OWNER = TEST_USERS.admin;
const POOL_ADMIN = 'U0POOLADM1';
const DELEGATE = 'U0DELEGAT1';
const BOT = 'U0BOTUSER1';
const GONE = 'U0GONEUSR1';
const ASKERS = [
  'U0ASKER001',
  'U0ASKER002',
  'U0ASKER003',
  'U0ASKER004',
  'U0ASKER005',
  'U0ASKER006',
  'U0ASKER007',
  'U0ASKER008',
];
/** An admin of pool 2001 only: a delegate whose own scope does not hold the approver's pool 2005. */
const OTHER_POOL_ADMIN = 'U0POOLADM2';

const clock = settableClock('2026-11-25T10:00:00.000Z');
const DAY = 86_400_000;

const t = appPerFile('approvers-', (dataDir) =>
  startTestApp({
    now: clock.now,
    dataDir,
    admins: [OWNER],
    slack: {
      users: [
        slackMember(POOL_ADMIN, 'paula.pool'),
        slackMember(DELEGATE, 'dev.delegate'),
        slackMember(OTHER_POOL_ADMIN, 'olga.pool'),
        { ...slackMember(BOT, 'robo.bot'), isBot: true },
        { ...slackMember(GONE, 'gone.away'), deleted: true },
        ...ASKERS.map((id, i) => slackMember(id, `asker.${i + 1}`)),
      ],
    },
    ...selfServiceTo(),
  }).then(withPoolAdmin),
);

/** The test resolver: pool 2005 has an admin of its own (POOL_ADMIN, scoped to it); every other pool, the owners. */
function withPoolAdmin(app: TestApp): TestApp {
  const roles = app.deps.roles;
  const roleOf = roles.roleOf.bind(roles);
  const owners = roles.adminRecipients?.bind(roles);
  roles.roleOf = async (client, user) =>
    user === POOL_ADMIN || user === OTHER_POOL_ADMIN ? 'admin' : roleOf(client, user);
  roles.scopeOf = async (_client, user) =>
    user === POOL_ADMIN ? poolsScope(['2005']) : user === OTHER_POOL_ADMIN ? poolsScope(['2001']) : EVERY_POOL;
  roles.approversOf = async (client, poolId) => (poolId === '2005' ? [POOL_ADMIN] : ((await owners?.(client)) ?? []));
  return app;
}

const isCard = (c: { args: Record<string, unknown> }, requester: string) =>
  c.args.thread_ts === undefined && textOf(c.args.blocks).includes(`<@${requester}> (`);

/** `requester` asks for `poolId`; once they heard "received": the DMs the card went to and the request id. */
async function ask(requester: string, poolId: string): Promise<{ to: string[]; id: string; cards: unknown[] }> {
  const seen = t.slack.calls.length;
  await t.viewSubmission({ view: requestFormView(`VREQ${requester}${seen}`, poolId) }, { userId: requester });
  await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === dmChannel(requester) && textOf(c.args.blocks).includes('was received'),
  );
  await t.settled();
  const calls = t.slack.calls.slice(seen).filter((c) => c.method === 'chat.postMessage' && isCard(c, requester));
  const id = String(buttons(calls[0]?.args ?? {}).find((b) => b.action_id === RequestActionId.approve)?.value);
  return { to: calls.map((c) => String(c.args.channel)), id, cards: calls.map((c) => c.args.blocks) };
}

const day = (offsetDays: number) => new Date(clock.c.t + offsetDays * DAY).toISOString().slice(0, 10);

/** The away form as `user` submits it. */
function away(user: string, o: { delegate?: string; from?: string; until?: string }) {
  return t.viewSubmission(
    {
      view: {
        id: `VAWAY${user}`,
        callback_id: ApproverCallbackId.awayForm,
        state: {
          values: {
            [ApproverInputId.from.block]: {
              [ApproverInputId.from.action]: { type: 'datepicker', selected_date: o.from ?? null },
            },
            [ApproverInputId.until.block]: {
              [ApproverInputId.until.action]: { type: 'datepicker', selected_date: o.until ?? null },
            },
            [ApproverInputId.delegate.block]: {
              [ApproverInputId.delegate.action]: { type: 'users_select', selected_user: o.delegate ?? null },
            },
          },
        },
      },
    },
    { userId: user },
  );
}

const click = (actionId: string, value: string, userId: string) => t.clickButton(actionId, value, { userId });

/** The newest audit entry of `action` about `requester`'s request. */
async function audited(action: string, requester: string) {
  const entries = await t.audit.recent(50);
  return entries.find((e) => e.action === action && e.requester === requester && e.outcome === 'done');
}

/** The live delegation id shown on `user`'s App Home ("End it now"). */
async function shownDelegation(user: string, words: string): Promise<string> {
  const published = await t.slack.waitForCall(
    'views.publish',
    (c) => c.args.user_id === user && textOf(c.args.view).includes(words),
  );
  return String(buttons(published.args.view).find((b) => b.action_id === ApproverActionId.awayEnd)?.value);
}

describe('who approves', () => {
  it('a request for a pool with its own admin goes to that admin; a pool with none goes to the owners', async () => {
    const own = await ask(ASKERS[0] as string, '2005');
    expect(own.to).toEqual([dmChannel(POOL_ADMIN)]);
    const fallback = await ask(ASKERS[0] as string, '2002');
    expect(fallback.to).toEqual([dmChannel(OWNER)]);
  });

  it('refuses a bad away form with one sentence each, and changes nothing', async () => {
    const errorsOf = async (o: Parameters<typeof away>[1]) => JSON.parse((await away(POOL_ADMIN, o)).body).errors;
    expect(await errorsOf({ delegate: POOL_ADMIN, from: day(0), until: day(2) })).toEqual({
      [ApproverInputId.delegate.block]: 'You cannot delegate your approvals to yourself: pick someone else.',
    });
    for (const who of [BOT, GONE, TEST_USERS.guest]) {
      expect(await errorsOf({ delegate: who, from: day(0), until: day(2) })).toEqual({
        [ApproverInputId.delegate.block]: expect.stringMatching(/pick a full member of the workspace/),
      });
    }
    expect(await errorsOf({ delegate: DELEGATE, from: day(3), until: day(1) })).toEqual({
      [ApproverInputId.until.block]: 'The last day is before the first: pick an end on or after the start.',
    });
    // Someone without any role has no approvals to delegate.
    const outsider = await away(TEST_USERS.nobody, { delegate: DELEGATE, from: day(0), until: day(2) });
    expect(outsider.body).toContain('Only license admins have approvals to delegate.');
    // Nothing changed: the next card still goes to the pool's admin.
    expect((await ask(ASKERS[1] as string, '2005')).to).toEqual([dmChannel(POOL_ADMIN)]);
  });

  it('a delegate with a role of their own takes the cards at once; their decision is audited for the approver', async () => {
    // The owner covers every pool: no one else's yes is needed.
    const set = await away(POOL_ADMIN, { delegate: OWNER, from: day(0), until: day(3) });
    expect(set.body).toBe('');
    await waitForDm(t.slack, POOL_ADMIN, `Your approval cards go to <@${OWNER}>`);
    const id = await shownDelegation(POOL_ADMIN, `Your approvals go to <@${OWNER}>`);
    const asked = await ask(ASKERS[2] as string, '2005');
    expect(asked.to).toEqual([dmChannel(OWNER)]);
    expect(textOf(asked.cards[0])).toContain(`You get this card for <@${POOL_ADMIN}>, who is away.`);

    const approved = await (await click(RequestActionId.approve, asked.id, OWNER)).waitForResponse();
    expect(textOf(approved.body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    const entry = await audited('approved', ASKERS[2] as string);
    expect(entry?.onBehalfOf).toBe(POOL_ADMIN);
    expect(auditSentence(entry as NonNullable<typeof entry>, { emails: false })).toContain(
      `decided by <@${OWNER}> for <@${POOL_ADMIN}>`,
    );
    // The requester is told once, as for any approval.
    await waitForDm(t.slack, ASKERS[2] as string, 'is yours');

    // "End it now" by someone else is refused; by the approver, the cards come back to them.
    const forged = await (await click(ApproverActionId.awayEnd, id, TEST_USERS.nobody)).waitForResponse();
    expect(textOf(forged.body.blocks)).toContain('Only the approver who set this delegation, or an owner, can end it.');
    await click(ApproverActionId.awayEnd, id, POOL_ADMIN);
    await t.settled();
    expect((await ask(ASKERS[3] as string, '2005')).to).toEqual([dmChannel(POOL_ADMIN)]);
  });

  it('a delegate without a role waits for an owner’s yes; then decides for the approver, and it ends by itself', async () => {
    await away(POOL_ADMIN, { delegate: DELEGATE, from: day(0), until: day(1) });
    const ask1 = await waitForDm(t.slack, OWNER, 'asks that their approval cards go to');
    const delegationId = String(buttons(ask1.args).find((b) => b.action_id === ApproverActionId.accept)?.value);
    await shownDelegation(POOL_ADMIN, 'waiting for an owner’s yes');
    // Until the owner says yes the cards keep going to the approver, and the delegate may not decide.
    const before = await ask(ASKERS[4] as string, '2005');
    expect(before.to).toEqual([dmChannel(POOL_ADMIN)]);
    const refused = await (await click(RequestActionId.approve, before.id, DELEGATE)).waitForResponse();
    expect(textOf(refused.body.blocks)).toContain('Only license admins can change licenses');
    // Only an owner may say yes.
    const notOwner = await (await click(ApproverActionId.accept, delegationId, POOL_ADMIN)).waitForResponse();
    expect(textOf(notOwner.body.blocks)).toContain(
      'Only an owner (LICENSE_ADMINS) can approve or refuse a delegation.',
    );

    const yes = await (await click(ApproverActionId.accept, delegationId, OWNER)).waitForResponse();
    expect(textOf(yes.body.blocks)).toContain(`Approved by <@${OWNER}>`);
    await waitForDm(t.slack, DELEGATE, 'their course request cards come to you');
    const again = await (await click(ApproverActionId.refuse, delegationId, OWNER)).waitForResponse();
    expect(textOf(again.body.blocks)).toContain('That delegation was decided already.');

    const during = await ask(ASKERS[5] as string, '2005');
    expect(during.to).toEqual([dmChannel(DELEGATE)]);
    // A forged click by someone outside is refused; the delegate's own decision is audited for the approver.
    const outsider = await (await click(RequestActionId.approve, during.id, TEST_USERS.nobody)).waitForResponse();
    expect(textOf(outsider.body.blocks)).toContain('Only license admins can change licenses');
    const decided = await (await click(RequestActionId.approve, during.id, DELEGATE)).waitForResponse();
    expect(textOf(decided.body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    expect((await audited('approved', ASKERS[5] as string))?.onBehalfOf).toBe(POOL_ADMIN);

    // The delegate asks for a course themselves: their own request goes to the approver, and they may not decide it.
    const own = await ask(DELEGATE, '2005');
    expect(own.to).toEqual([dmChannel(POOL_ADMIN)]);
    const ownClick = await (await click(RequestActionId.approve, own.id, DELEGATE)).waitForResponse();
    expect(textOf(ownClick.body.blocks)).toContain('You can’t decide your own request');

    // After its last day it ends by itself: the cards go to the approver again.
    clock.c.t += 2 * DAY;
    expect((await ask(ASKERS[6] as string, '2005')).to).toEqual([dmChannel(POOL_ADMIN)]);
  });

  it('a delegate who is an admin of other pools decides the approver’s pool once an owner said yes', async () => {
    await away(POOL_ADMIN, { delegate: OTHER_POOL_ADMIN, from: day(0), until: day(1) });
    const asked = await waitForDm(t.slack, OWNER, `<@${OTHER_POOL_ADMIN}>`);
    const delegationId = String(buttons(asked.args).find((b) => b.action_id === ApproverActionId.accept)?.value);
    await click(ApproverActionId.accept, delegationId, OWNER);
    await waitForDm(t.slack, OTHER_POOL_ADMIN, 'their course request cards come to you');
    const request = await ask(ASKERS[7] as string, '2005');
    expect(request.to).toEqual([dmChannel(OTHER_POOL_ADMIN)]);
    // Their own scope (pool 2001) does not hold pool 2005: the delegation does, for this card.
    const decided = await (await click(RequestActionId.approve, request.id, OTHER_POOL_ADMIN)).waitForResponse();
    // The earlier cases filled pool 2005: the approval is taken up (not refused, not "not found") and waits for a seat.
    expect(textOf(decided.body.blocks)).toContain('Pool `2005` of *Power Query Fundamentals* is full');
  });
});
