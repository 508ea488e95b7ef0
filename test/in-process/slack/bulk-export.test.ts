/**
 * Bulk work, the export, the recycle flow and the Workflow Builder step through the app's listeners,
 * without a process (listener harness): `/licenses bulk` (its form, the dry run, the confirmation and
 * the job's report in a DM: src/slack/bulk/), `/licenses export` (subcommands/export.ts,
 * export-file.ts), the recycle confirmation's pick and submission (actions/recycle-pick.ts,
 * views/recycle-submit.ts) and the custom step (requests/workflow.ts). Asserted: what a person reads
 * and can click, refusals for the wrong role, and the licensing and Slack calls made. The signed-HTTP
 * versions are test/app/{bulk,export,recycle,requests}.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DeskCallbackId, InputId, RequestActionId } from '../../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import { appPerFile } from '../../support/app-per-file.js';
import { bulkFormValues } from '../../support/bulk.js';
import {
  openModal,
  pickInRecycleConfirmation,
  recycleConfirmation,
  recycleState,
  type ShownView,
  settledView,
  submit,
  textOf,
  writes,
} from '../../support/change-flow.js';
import { parseCsv } from '../../support/csv.js';
import type { SlackCall } from '../../support/fake-slack.js';
import { allText, buttons } from '../../support/fixtures.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';
import { approvedStepOutputs, selfServiceTo, workflowStepEvent } from '../../support/requests.js';

const CHANNEL = 'C0REQUESTS';
const WORKFLOW_USER = 'U0WFLOW001';

const t = appPerFile('listener-bulk-', (dataDir) =>
  startListenerApp({
    dataDir,
    slack: { users: [{ id: WORKFLOW_USER, name: 'wes.flow', email: 'wes.flow@acme-learning.example' }] },
    ...selfServiceTo(CHANNEL),
  }),
);

const since = (from: number) => (c: SlackCall) => t.slack.calls.indexOf(c) >= from;
const dmTo = (user: string) => `D${user.slice(1)}`;
const ackOf = (body: string) => (body ? (JSON.parse(body) as Record<string, unknown>) : {});

describe('/licenses bulk', () => {
  it('a viewer is refused in the reply and no window opens', async () => {
    const from = t.slack.calls.length;
    const r = await t.command('bulk', { userId: TEST_USERS.viewer });
    expect(r.status).toBe(200);
    expect(seen(await r.waitForResponse()).text).toContain('Only license admins');
    await t.settled();
    expect(t.slack.calls.slice(from).some((c) => c.method === 'views.open')).toBe(false);
  });

  it('an admin gets the form: a loading view first, then the pools that can take students', async () => {
    const from = t.slack.calls.length;
    const form = await openModal(t, () => t.command('bulk'));
    const opened = await t.slack.waitForCall('views.open', since(from));
    expect(allText(opened.args.view)).toContain('Reading your pools');
    expect(form.callback_id).toBe(DeskCallbackId.bulkForm);
    const text = textOf(form.blocks);
    expect(text).toContain('pool 2007');
    expect(text).not.toContain('pool 2006'); // ended
    expect(checkModalLimits(form)).toEqual([]);
  });

  it('an empty list and a past date are answered on the form, with no licensing call', async () => {
    t.sandbox.clearRequests();
    const r = await t.viewSubmission({
      view: { callback_id: DeskCallbackId.bulkForm, state: { values: bulkFormValues('2007', [''], '2020-01-01') } },
    });
    const ack = ackOf(r.body);
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors as Record<string, string>).sort()).toEqual(['bulk_end_date', 'bulk_list_1']);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('the check reports each line and writes nothing; a viewer cannot start it; the admin starts it: one POST a ready line, the report in a DM', async () => {
    const list = ['Ada One, ada.one@contoso.com', 'not-an-email', 'bob@gmail.com', 'ben.two@contoso.com'];
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    const r = await t.viewSubmission({
      view: { callback_id: DeskCallbackId.bulkForm, state: { values: bulkFormValues('2007', [list.join('\n')]) } },
    });
    const ack = ackOf(r.body) as { response_action?: string; view?: { external_id?: string } };
    expect(ack.response_action).toBe('push');
    expect(allText(ack.view)).toContain('Checking 4 lines');
    const update = await t.slack.waitForCall(
      'views.update',
      (c) => since(from)(c) && c.args.external_id === ack.view?.external_id,
    );
    const report = update.args.view as ShownView;
    expect(report.callback_id).toBe(DeskCallbackId.bulkConfirm);
    const text = textOf(report.blocks);
    expect(text).toMatch(/ready: 2/);
    expect(text).toMatch(/invalid e-mail: 1/);
    expect(text).toMatch(/domain not allowed: 1/);
    expect(checkModalLimits(report)).toEqual([]);
    expect(writes(t)).toEqual([]);

    const confirm = (userId: string) =>
      t.viewSubmission(
        {
          view: {
            callback_id: DeskCallbackId.bulkConfirm,
            private_metadata: report.private_metadata,
            state: { values: {} },
          },
        },
        { userId },
      );
    const refused = ackOf((await confirm(TEST_USERS.viewer)).body);
    expect(refused.response_action).toBe('update');
    expect(allText(refused.view)).toMatch(/license admin/i);

    const mark = t.slack.calls.length;
    expect(ackOf((await confirm(TEST_USERS.admin)).body).response_action).toBe('clear');
    const done = await t.slack.waitForCall(
      'chat.update',
      (c) => since(mark)(c) && allText(c.args).includes('Bulk assignment finished'),
      15_000,
    );
    expect(allText(done.args)).toContain('2 of 2 assigned');
    const results = await t.slack.waitForCall(
      'chat.postMessage',
      (c) => since(mark)(c) && c.args.thread_ts === done.args.ts,
    );
    expect(allText(results.args)).toContain('invalid e-mail');
    const dm = t.slack.calls
      .slice(mark)
      .filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmTo(TEST_USERS.admin));
    expect(dm.filter((c) => c.args.thread_ts === undefined)).toHaveLength(1); // one progress message, edited
    expect(writes(t).map((w) => `${w.method} ${w.url}`)).toEqual([
      'POST /v1/pool/2007/license',
      'POST /v1/pool/2007/license',
    ]);
    for (const email of ['ada.one@contoso.com', 'ben.two@contoso.com']) {
      expect(t.sandbox.inspect.licenses({ poolId: '2007' }).filter((l) => l.student.email === email)).toHaveLength(1);
    }

    // The same report submitted again starts nothing.
    const again = ackOf((await confirm(TEST_USERS.admin)).body);
    expect(allText(again.view)).toContain('already started');
    await t.settled();
    expect(writes(t)).toHaveLength(2);
  });
});

describe('/licenses export', () => {
  async function exportAs(text: string, userId: string) {
    const before = t.slack.uploads.length;
    const r = await t.command(text, { userId });
    expect(r.status).toBe(200);
    await t.settled();
    const last = r.responses().at(-1);
    if (!last) throw new Error(`no reply to /licenses ${text}`);
    return { reply: seen(last), uploads: t.slack.uploads.slice(before) };
  }

  it('a viewer gets every license, inactive included, as one CSV file in a DM, and the reply says so', async () => {
    t.sandbox.clearRequests();
    const { reply, uploads } = await exportAs('export', TEST_USERS.viewer);
    const all = t.sandbox.inspect.licenses({ includeInactive: true });
    expect(reply.text).toContain(`Sent: ${all.length} licenses`);
    expect(reply.buttons).toEqual([]);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.channelId).toBe(dmTo(TEST_USERS.viewer));
    expect(uploads[0]?.filename).toMatch(/^licenses-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(uploads[0]?.content ?? '');
    expect(new Set(rows.slice(1).map((row) => row[4]))).toEqual(new Set(all.map((l) => l.id)));
    expect(writes(t)).toEqual([]);
  });

  it('export <poolId>: only that pool; a pool that does not exist gets a sentence and no file', async () => {
    const { reply, uploads } = await exportAs('export 2003', TEST_USERS.admin);
    expect(reply.text).toContain('of pool 2003');
    const rows = parseCsv(uploads[0]?.content ?? '');
    expect(rows.length - 1).toBe(t.sandbox.inspect.licenses({ includeInactive: true, poolId: '2003' }).length);
    expect(rows.slice(1).every((row) => row[3] === '2003')).toBe(true);
    const missing = await exportAs('export 9999', TEST_USERS.admin);
    expect(missing.reply.text).toContain('no pool with that id');
    expect(missing.uploads).toEqual([]);
  });

  it('Slack refusing the DM or the file: the reply says nothing was exported or sent, and no file arrives', async () => {
    t.slack.answer('conversations.open', { ok: false, error: 'missing_scope' }, 1);
    const noDm = await exportAs('export 2003', TEST_USERS.viewer);
    expect(noDm.reply.text).toContain('could not open a direct message with you, so nothing was exported');
    expect(noDm.uploads).toEqual([]);
    t.slack.answer('files.getUploadURLExternal', { ok: false, error: 'missing_scope' }, 1);
    const noFile = await exportAs('export 2003', TEST_USERS.viewer);
    expect(noFile.reply.text).toContain('Slack did not take the file, so nothing was sent');
    expect(noFile.uploads).toEqual([]);
  });

  it('someone with no role is refused and gets no file', async () => {
    const from = t.slack.calls.length;
    const { reply, uploads } = await exportAs('export', TEST_USERS.nobody);
    expect(reply.text).toContain("don't have access");
    expect(uploads).toEqual([]);
    expect(t.slack.calls.slice(from).some((c) => c.method === 'conversations.open')).toBe(false);
  });
});

describe('recycle (pool 2003, full)', () => {
  const choiceOf = (view: ShownView) =>
    view.blocks.find((b) => b.block_id === InputId.recycleChoice.block) as {
      element: { options: { value: string }[]; initial_option?: { value: string } };
    };

  it('the confirmation names the license that would end before anything is written', async () => {
    const { view, ack } = await recycleConfirmation(t, 'newcomer@contoso.com');
    expect(ack.response_action).toBe('update');
    expect(writes(t)).toEqual([]);
    const text = textOf(view.blocks);
    expect(text).toContain('is full');
    expect(text).toContain('alberto.rossi@contoso.com');
    expect(choiceOf(view).element.initial_option?.value).toBe('4024');
    expect(checkModalLimits(view)).toEqual([]);
  });

  it('picking another license rebuilds the confirmation around it, with one read and no write', async () => {
    const { view } = await recycleConfirmation(t, 'picker@contoso.com');
    const other = choiceOf(view).element.options.find((o) => o.value !== '4024')?.value ?? '';
    const license = t.sandbox.inspect.license(other);
    t.sandbox.clearRequests();
    const update = await pickInRecycleConfirmation(t, view, other, 'h-pick');
    expect(update.args.hash).toBe('h-pick');
    const shown = textOf((update.args.view as ShownView).blocks);
    expect(shown).toContain('The license that ends, as you picked:');
    expect(shown).toContain(`license \`${other}\``);
    expect(shown).toContain(license?.student.name ?? '?');
    expect(t.sandbox.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /v1/student']);
  });

  it('a viewer who submits the confirmation is refused and nothing is written', async () => {
    const { view } = await recycleConfirmation(t, 'viewer-try@contoso.com');
    const { ack } = await submit(t, view, recycleState('4024'), TEST_USERS.viewer);
    expect(ack.response_action).toBe('update');
    expect(textOf(ack.view)).toMatch(/license admin/i);
    await t.settled();
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.license('4024')?.active).toBe(true);
  });

  it('the default: one POST with recycle; the oldest license ends and the newcomer holds the seat', async () => {
    const { view } = await recycleConfirmation(t, 'newcomer@contoso.com');
    const from = t.slack.calls.length;
    const { ack } = await submit(t, view, recycleState('4024'));
    expect(ack.response_action).toBe('update');
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Assigned license');
    expect(textOf(result.blocks)).toContain('of *Optimizing DAX* (pool `2003`)');
    expect(writes(t).map((w) => w.method)).toEqual(['POST']);
    expect(t.sandbox.inspect.license('4024')?.active).toBe(false);
    expect(t.sandbox.inspect.student({ email: 'newcomer@contoso.com' })?.courses[0]?.poolId).toBe('2003');
  });

  it('a chosen license: DELETE that one, then POST; the result says which license ended', async () => {
    const { view } = await recycleConfirmation(t, 'second@contoso.com');
    const from = t.slack.calls.length;
    await submit(t, view, recycleState('4030'));
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('Ended license `4030`');
    expect(writes(t).map((w) => `${w.method} ${w.url}`)).toEqual([
      'DELETE /v1/license/4030',
      'POST /v1/pool/2003/license',
    ]);
    expect(t.sandbox.inspect.license('4030')?.active).toBe(false);
  });
});

describe('the Workflow Builder step "Request a course license"', () => {
  const cardFor = (user: string) =>
    t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === CHANNEL && textOf(c.args.blocks).includes(`<@${user}>`),
    );

  it('creates a request whose card admins can approve; the approval completes the step with its outputs', async () => {
    const sent = await t.event(
      workflowStepEvent('Fx0LISTEN01', { requester: WORKFLOW_USER, pool_id: '2002', reason: 'New hire' }),
    );
    expect(sent.status).toBe(200);
    const card = await cardFor(WORKFLOW_USER);
    expect(textOf(card.args.blocks)).toContain('New hire');
    expect(textOf(card.args.blocks)).toContain('Mastering DAX');
    const approve = buttons(card.args).find((b) => b.action_id === RequestActionId.approve);
    expect(approve).toBeDefined();
    await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === dmTo(WORKFLOW_USER) && textOf(c.args.blocks).includes('was received'),
    );
    expect(t.slack.calls.some((c) => c.method.startsWith('functions.'))).toBe(false);

    // Delivered again (same execution id): no second card, the step still open.
    await t.event(workflowStepEvent('Fx0LISTEN01', { requester: WORKFLOW_USER, pool_id: '2002', reason: 'New hire' }));
    await t.settled();
    const cards = t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === CHANNEL &&
        textOf(c.args.blocks).includes(`<@${WORKFLOW_USER}>`),
    );
    expect(cards).toHaveLength(1);
    expect(t.slack.calls.some((c) => c.method.startsWith('functions.'))).toBe(false);

    t.sandbox.clearRequests();
    const clicked = await t.action(
      {
        container: { type: 'message', message_ts: '1767225600.000200', channel_id: CHANNEL },
        channel: { id: CHANNEL, name: 'license-requests' },
        actions: [
          { action_id: RequestActionId.approve, block_id: 'b', type: 'button', value: approve?.value, action_ts: '1' },
        ],
      },
      { userId: TEST_USERS.admin, channelId: CHANNEL },
    );
    expect(textOf((await clicked.waitForResponse()).body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    const done = await t.slack.waitForCall('functions.completeSuccess');
    expect(done.args.function_execution_id).toBe('Fx0LISTEN01');
    expect(done.args.outputs).toEqual(approvedStepOutputs(t, '2002', 'wes.flow@acme-learning.example'));
    expect(writes(t).map((w) => `${w.method} ${w.url}`)).toEqual(['POST /v1/pool/2002/license']);
  });

  it.each([
    ['a pool id that is not one', { requester: WORKFLOW_USER, pool_id: 'no such pool!' }, 'is not a pool id'],
    ['a requester that is not a user', { requester: 'someone', pool_id: '2002' }, 'must be a Slack user'],
  ])('%s: the step ends at once with a readable error, and no request is made', async (_what, inputs, words) => {
    const id = `Fx0BAD${words.length}`;
    const from = t.slack.calls.length;
    await t.event(workflowStepEvent(id, inputs));
    const failed = await t.slack.waitForCall(
      'functions.completeError',
      (c) => since(from)(c) && c.args.function_execution_id === id,
    );
    expect(String(failed.args.error)).toContain(words);
    await t.settled();
    expect(t.slack.calls.slice(from).some((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)).toBe(
      false,
    );
  });
});
