/**
 * Assign end to end: the command, the Pool's Assign button and the global shortcut open one
 * modal (loading view first); inline errors cost no write; success changes the seat count once; the
 * API's own refusals and an unclear answer are told plainly.
 */
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, InputId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  assignState,
  dayFromToday,
  modalProblems,
  openModal,
  type ShownView,
  settledView,
  shortcut,
  submitKeepingAck,
  textOf,
  writes,
} from '../support/change-flow.js';
import { callSandbox } from '../support/sandbox.js';

const MEMBER = { id: 'U0CONTOSO1', name: 'mia.ward', realName: 'Mia Ward', email: 'mia.ward@contoso.com' };
const acks: Record<string, unknown>[] = [];

const t = appPerFile('assign-', () => startTestApp({ slack: { users: [MEMBER] } }));

const openByCommand = (text: string) => openModal(t, () => t.command(text));
const poolOptions = (view: ShownView) => {
  const block = view.blocks.find((b) => b.block_id === InputId.assignPool.block) as
    | { element: { options: { value: string; text: { text: string } }[]; initial_option?: { value: string } } }
    | undefined;
  return block?.element;
};

/** Submits the assign form with `values`, its ack kept for the limits check. */
const submitted = (
  view: Pick<ShownView, 'id' | 'callback_id' | 'private_metadata'>,
  values: Parameters<typeof assignState>[0],
  userId?: string,
) => submitKeepingAck(t, acks, view, assignState(values), userId);

describe('opening the form', () => {
  it('/licenses assign <pool> <email> <date> opens a loading view at once, then the prefilled form', async () => {
    // Nothing cached: the form has to read the pools from the licensing API.
    t.deps.licensing.invalidateCache();
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const view = await openByCommand(`assign 2007 ada.new@contoso.com ${dayFromToday(30)}`);
    const open = t.slack.calls.slice(from).find((c) => c.method === 'views.open');
    expect(open).toBeDefined();
    expect(textOf(open?.args.view)).toContain('Reading your pools');
    // No licensing call before the modal was open (design.md section 2), and some after it.
    expect(t.sandbox.requests.length).toBeGreaterThan(0);
    expect(t.sandbox.requests.every((r) => r.at >= (open?.at ?? Number.POSITIVE_INFINITY))).toBe(true);
    expect(view.callback_id).toBe(CallbackId.assignForm);
    expect(poolOptions(view)?.initial_option?.value).toBe('2007');
    expect(textOf(view.blocks)).toContain('ada.new@contoso.com');
    expect(textOf(view.blocks)).toContain(dayFromToday(30));
    expect(JSON.parse(view.private_metadata ?? '{}')).toEqual({ c: 'C0LICOPS01' });
  });

  it('lists only pools that can give a seat: no ended pool, no full untransferable one; full transferable is offered', async () => {
    const view = await openByCommand('assign');
    const values = poolOptions(view)?.options.map((o) => o.value) ?? [];
    expect(values).not.toContain('2006'); // ended 35 days ago
    expect(values).toContain('2003'); // full but transferable: a seat can be freed
    expect(textOf(view.blocks)).toContain('Free a seat by ending another license');
    expect(textOf(view.blocks)).toContain('not listed');
    for (const o of poolOptions(view)?.options ?? []) expect(Array.from(o.text.text).length).toBeLessThanOrEqual(75);
  });

  it('two pools of one course can be told apart in the menu itself: each option names its pool', async () => {
    const view = await openByCommand('assign');
    const texts = (poolOptions(view)?.options ?? []).map((o) => o.text.text);
    expect(texts).toContain('Mastering DAX · pool 2001');
    expect(texts).toContain('Mastering DAX · pool 2002');
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('the Assign button on a pool and the global shortcut open the same form', async () => {
    const byButton = await openModal(t, () => t.clickButton(ActionId.poolAssign, '2001'));
    expect(poolOptions(byButton)?.initial_option?.value).toBe('2001');
    const byShortcut = await openModal(t, () => shortcut(t, TEST_USERS.admin));
    expect(byShortcut.callback_id).toBe(CallbackId.assignForm);
    expect(poolOptions(byShortcut)?.initial_option).toBeUndefined();
    expect(JSON.parse(byShortcut.private_metadata ?? '{}')).toEqual({});
  });
});

describe('inline errors, no write', () => {
  it.each([
    ['a malformed e-mail', { pool: '2001', email: 'not-an-email' }, InputId.assignEmail.block, 'not an e-mail'],
    ['no student at all', { pool: '2001' }, InputId.assignEmail.block, 'Type the student'],
    [
      'both an e-mail and a member',
      { pool: '2001', email: 'a@contoso.com', user: MEMBER.id },
      InputId.assignUser.block,
      'not both',
    ],
    ['no pool', { email: 'a@contoso.com' }, InputId.assignPool.block, 'Pick a pool'],
    [
      'a domain outside the allowed ones',
      { pool: '2001', email: 'a@outlook.com' },
      InputId.assignEmail.block,
      'contoso.com, fabrikam.com',
    ],
    [
      'an end date after the pool end',
      { pool: '2004', email: 'a@contoso.com', end: dayFromToday(60) },
      InputId.assignEndDate.block,
      'after the pool ends',
    ],
    [
      'an end date in the past',
      { pool: '2001', email: 'a@contoso.com', end: dayFromToday(-2) },
      InputId.assignEndDate.block,
      'in the past',
    ],
    [
      'a full transferable pool without "free a seat"',
      { pool: '2003', email: 'a@contoso.com' },
      InputId.assignPool.block,
      'This pool is full',
    ],
    ['a member without an e-mail', { pool: '2001', user: TEST_USERS.guest }, InputId.assignUser.block, 'no e-mail'],
  ])('%s', async (_name, values, block, words) => {
    const view = await openByCommand('assign');
    t.sandbox.clearRequests();
    const { status, ack } = await submitted(view, values);
    expect(status).toBe(200);
    expect(ack.response_action).toBe('errors');
    expect(String((ack.errors as Record<string, string>)[block])).toContain(words);
    expect(writes(t)).toEqual([]);
  });

  it('a student who already holds the course: one GET /v1/student, an inline error, no write', async () => {
    const view = await openByCommand('assign 2001');
    t.sandbox.clearRequests();
    const { ack } = await submitted(view, { pool: '2001', email: 'alberto.rossi@contoso.com' });
    expect(ack.response_action).toBe('errors');
    expect(String((ack.errors as Record<string, string>)[InputId.assignEmail.block])).toContain(
      'already holds an active license for this course',
    );
    expect(t.sandbox.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v1/student']);
  });
});

describe('assigning', () => {
  it('assigns once: working view, one POST, the new license in the modal, a one-sentence ephemeral reply', async () => {
    const before = t.sandbox.inspect.pool('2007')?.availableLicenses ?? 0;
    const view = await openByCommand('assign 2007');
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const { ack } = await submitted(view, { pool: '2007', email: 'grace.hopper@contoso.com', name: 'Grace Hopper' });
    expect(ack.response_action).toBe('update');
    expect(textOf(ack.view)).toContain('Assigning a license to grace.hopper@contoso.com');
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toMatch(/Assigned license `\d+` of \*Power Query Fundamentals\*/);
    expect(textOf(result.blocks)).toContain('Grace Hopper');
    // Whom it went to, then when it ends: "…, ends <date> to Grace Hopper" read as if the date went to her.
    expect(textOf(result.blocks)).toMatch(
      /\(pool `2007`\) to \*Grace Hopper\* grace\.hopper@contoso\.com; it ends [A-Z][a-z]{2} \d{1,2}, \d{4}\./,
    );
    expect(t.sandbox.inspect.pool('2007')?.availableLicenses).toBe(before - 1);
    expect(writes(t).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/pool/2007/license']);
    const reply = await t.slack.waitForCall('chat.postEphemeral', (c) => t.slack.calls.indexOf(c) >= from);
    expect(reply.args).toMatchObject({ channel: 'C0LICOPS01', user: TEST_USERS.admin });
    expect(String(reply.args.text)).toContain('Assigned license');
    expect(t.sandbox.inspect.student({ email: 'grace.hopper@contoso.com' })?.name).toBe('Grace Hopper');
  });

  it('a Slack member: the e-mail comes from users.info', async () => {
    const view = await openByCommand(`assign 2007 <@${MEMBER.id}|mia.ward>`);
    const from = t.slack.calls.length;
    const { ack } = await submitted(view, { pool: '2007', user: MEMBER.id });
    expect(ack.response_action).toBe('update');
    await settledView(t, view.id, from);
    expect(t.sandbox.inspect.student({ email: MEMBER.email })?.courses.map((c) => c.poolId)).toContain('2007');
  });

  it('two identical submissions change things once', async () => {
    const view = await openByCommand('assign 2001');
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const values = { pool: '2001', email: 'twice@fabrikam.com' };
    const [a, b] = await Promise.all([submitted(view, values), submitted(view, values)]);
    expect([a.ack.response_action, b.ack.response_action]).toEqual(['update', 'update']);
    await settledView(t, view.id, from);
    expect(writes(t).filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});

describe("the licensing API's own refusals (states the pre-checks cannot see)", () => {
  // A view without a snapshot (another process, a restart): the API judges.
  const unknownView = (n: number) => ({
    id: `V0NOSNAP0${n}`,
    callback_id: CallbackId.assignForm,
    private_metadata: '{}',
  });

  it.each([
    ['a domain', 1, { pool: '2001', email: 'someone@outlook.com' }, 'addresses at contoso.com, fabrikam.com'],
    [
      'beyond the pool end',
      2,
      { pool: '2004', email: 'late@contoso.com', end: dayFromToday(80) },
      'after the end of pool 2004',
    ],
  ])('%s: the refusal is shown, nothing changed', async (_name, n, values, words) => {
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await submitted({ ...unknownView(n) }, values);
    const result = await settledView(t, unknownView(n).id, from);
    expect(textOf(result.blocks)).toContain('The licensing service refused this');
    expect(textOf(result.blocks)).toContain(words);
    expect(textOf(result.blocks)).toContain('Nothing was changed');
  });

  it('no seat: the pool filled up after the form opened', async () => {
    const view = await openByCommand('assign 2007');
    const free = t.sandbox.inspect.pool('2007')?.availableLicenses ?? 0;
    for (let i = 0; i < free; i += 1) {
      const res = await callSandbox(t.sandbox, 'POST', '/v1/pool/2007/license', {
        body: { email: `filler${i}@contoso.com` },
      });
      expect(res.status).toBe(200);
    }
    const from = t.slack.calls.length;
    await submitted(view, { pool: '2007', email: 'toolate@contoso.com' });
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('has no available license');
  });

  it('already enrolled: the pre-check could not answer, so the API refused', async () => {
    t.sandbox.addFault({ kind: '500', method: 'GET', path: /^\/v1\/student$/ });
    try {
      const view = await openByCommand('assign 2001');
      const from = t.slack.calls.length;
      const { ack } = await submitted(view, { pool: '2001', email: 'alberto.rossi@contoso.com' });
      expect(ack.response_action).toBe('update');
      const result = await settledView(t, view.id, from);
      expect(textOf(result.blocks)).toContain('already has an active license for this course');
    } finally {
      t.sandbox.clearFaults();
    }
  });
});

describe('an unclear answer', () => {
  it('the connection drops after the POST was applied: one POST, read back, and the user is told it is there', async () => {
    const view = await openByCommand('assign 2001');
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: 'reset', phase: 'after', method: 'POST', times: 1 });
    const from = t.slack.calls.length;
    await submitted(view, { pool: '2001', email: 'unclear@contoso.com' });
    const result = await settledView(t, view.id, from);
    t.sandbox.clearFaults();
    expect(textOf(result.blocks)).toContain('read it back: the change is there');
    expect(textOf(result.blocks)).toMatch(/Assigned license `\d+`/);
    expect(writes(t).filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(t.sandbox.inspect.student({ email: 'unclear@contoso.com' })?.courses).toHaveLength(1);
  });
});

describe('Block Kit limits', () => {
  it('every view the assign flows produced is within limits', () => {
    expect(modalProblems(t, acks)).toEqual([]);
  });
});
