/**
 * The race between the two answers to "the pool is full": the approver frees a seat (the recycle, a
 * licensing write whose answer the test holds at a proxy in front of the sandbox) while a second
 * admin clicks "Add to the waitlist" on the card. The request must end assigned and out of line:
 * the waitlist click is told the license is being assigned, the requester hears "yours" once and
 * never "the pool is full, you are on the waitlist", and nothing later says it "could not be assigned".
 * Everything crosses the real boundaries: signed Slack requests in, the fake Slack and the licensing
 * sandbox on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { CallbackId, InputId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { assignState, openModal, recycleState, settledView, submit } from '../support/change-flow.js';
import { allText, buttons } from '../support/fixtures.js';
import { type HoldingProxy, startHoldingProxy } from '../support/kill-restart.js';
import { clickInRequestsChannel, poolOnlyRequestView, selfServiceTo } from '../support/requests.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQRACE01';
const POOL = '2003'; // full (8 of 8) and transferable in the demo seed
const APPROVER = TEST_USERS.admin;
const OTHER_ADMIN = TEST_USERS.workspaceAdmin;
const REQUESTER = { id: 'U0RACEREQ1', name: 'rae.race', email: 'rae.race@contoso.com' };

let sandbox: RunningSandbox;
let proxy: HoldingProxy;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: { limit: 25, windowMs: 3000 } });
  proxy = await startHoldingProxy(sandbox.url);
  t = await startTestApp({
    useSandbox: sandbox,
    // The app talks to the licensing service through the proxy; a held answer must not time out.
    licensing: { baseUrl: proxy.url, timeouts: { connectMs: 2000, headersMs: 30_000, bodyMs: 5000 } },
    admins: [APPROVER, OTHER_ADMIN],
    slack: { users: [{ ...REQUESTER }] },
    ...selfServiceTo(CHANNEL),
  });
});

afterAll(async () => {
  // A test that failed while a write was held: the proxy drops it, so the app can close.
  await proxy?.close();
  await t?.close();
  await sandbox?.close();
});

const dmChannel = (user: string) => `D${user.slice(1)}`;
const dmsToRequester = () =>
  t.slack.calls
    .filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(REQUESTER.id))
    .map((c) => allText(c.args.blocks));

const click = (actionId: string, value: string, userId: string) =>
  clickInRequestsChannel(t, { channel: CHANNEL, ts: '1767225600.000400' }, actionId, value, userId);

describe('freeing a seat for an approved request while another admin adds it to the waitlist', () => {
  // "Free a seat…" opens the assign form carrying the request: its write moves the request to
  // 'assigning' first (the request service's freeSeat), so "Add to the waitlist" is refused meanwhile.
  it('the request is assigned, never waitlisted; the waitlist click hears the license is being assigned; the requester hears "yours" once', async () => {
    // The requester asks for the full pool; the card reaches the channel.
    await t.viewSubmission({ view: poolOnlyRequestView('VRACE00001', POOL, 'command') }, { userId: REQUESTER.id });
    const card = await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${REQUESTER.id}>`),
    );
    const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);

    // Approved: the pool is full, so the approver is offered the choice.
    const choice = await (await click(RequestActionId.approve, id, APPROVER)).waitForResponse();
    expect(allText(choice.body.blocks)).toContain('is full');
    expect(buttons(choice.body).map((b) => b.action_id)).toEqual([RequestActionId.recycle, RequestActionId.waitlist]);

    // The approver frees a seat: "Free a seat…" opens the assign form, prefilled, with recycle; its
    // confirmation is submitted and the licensing write is applied but its answer held.
    const form = await openModal(t, () => click(RequestActionId.recycle, id, APPROVER));
    expect(form.callback_id).toBe(CallbackId.assignForm);
    const from = t.slack.calls.length;
    await submit(t, form, assignState({ pool: POOL, email: REQUESTER.email, recycle: true }), APPROVER);
    const confirm = await settledView(t, form.id, from);
    expect(confirm.callback_id).toBe(CallbackId.recycleConfirm);
    const write = proxy.hold({ method: 'POST', path: new RegExp(`^/v1/pool/${POOL}/license$`), phase: 'after' });
    const confirmFrom = t.slack.calls.length;
    const choiceBlock = confirm.blocks.find((b) => b.block_id === InputId.recycleChoice.block) as
      | { element?: { initial_option?: { value: string } } }
      | undefined;
    await submit(t, confirm, recycleState(choiceBlock?.element?.initial_option?.value), APPROVER);
    await until('the recycle POST held', () => write.request !== undefined);
    expect(write.request?.status).toBe(200);

    // Meanwhile a second admin clicks "Add to the waitlist" on the card: told the license is being
    // assigned, with no place in line.
    const added = await (await click(RequestActionId.waitlist, id, OTHER_ADMIN)).waitForResponse();
    const addedText = allText(added.body.blocks);
    expect(addedText).toMatch(/being assigned/i);
    expect(addedText).not.toMatch(/number \d/);
    expect(await t.deps.waitlist?.entries(POOL)).toEqual([]);

    // The answer reaches the app: the recycle completes, the request is assigned.
    write.release();
    await settledView(t, confirm.id, confirmFrom);
    await until('the request assigned', async () => (await t.deps.requests?.store.get(id))?.status === 'assigned');
    const license = sandbox.inspect
      .licenses({ poolId: POOL })
      .find((l) => l.active && l.student.email === REQUESTER.email);
    expect(license).toBeDefined();
    expect((await t.deps.requests?.store.get(id))?.licenseId).toBe(license?.id);
    await until('the requester told the license is theirs', () => dmsToRequester().some((s) => s.includes('yours')));
    await t.settled();

    // No place in line: /licenses waitlist shows nobody for the pool.
    expect(await t.deps.waitlist?.entries(POOL)).toEqual([]);
    const shown = allText((await (await t.command(`waitlist ${POOL}`)).waitForResponse()).body.blocks);
    expect(shown).not.toContain(`<@${REQUESTER.id}>`);
    expect(shown).toContain('Nobody');

    // The requester heard "yours" once, never "you are on the waitlist", and nothing "could not be assigned".
    const dms = dmsToRequester();
    expect(dms.filter((s) => s.includes('yours'))).toHaveLength(1);
    // (The approval's own DM, "freeing a seat or putting you on the waitlist", names the choice; it is no place in line.)
    expect(dms.filter((s) => /you are on the waitlist/i.test(s))).toEqual([]);
    expect(dms.filter((s) => /could not be assigned/i.test(s))).toEqual([]);
    // Nor did anyone else hear that it could not be assigned (the card, the approvers).
    const everything = t.slack.calls.map((c) => allText(c.args.blocks) + String(c.args.text ?? ''));
    expect(everything.filter((s) => /could not be assigned|could not take the freed seat/i.test(s))).toEqual([]);
  });
});
