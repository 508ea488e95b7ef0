/**
 * SIGTERM while work is in flight, with the real main process (src/main.ts in a child process) in
 * HTTP mode: Slack is the recording double and the licensing API the sandbox, both run by the test so
 * that they outlive the process. A change in flight finishes within SHUTDOWN_DRAIN_SECONDS, is
 * audited and told; one that does not is cut off, audited and told as "outcome unknown"; reads
 * answer or say that License Desk is restarting; new work is turned away with that sentence; and the
 * process exits 0.
 */
import { describe, expect, it } from 'vitest';
import { type BulkJob, createBulkJobStore } from '../../src/bulk/db/store.js';
import { BulkInputId, CallbackId, DeskCallbackId } from '../../src/kernel/blocks/ids.js';
import { openRecords } from '../../src/kernel/db/open.js';
import { extendState, textOf, viewOf } from '../support/change-flow.js';
import { type ResponseUrlPost, TEST_USERS } from '../support/fake-slack.js';
import { mainRig } from '../support/main-rig.js';
import { auditTableIn, eventsUrlOf, logLinesOf } from '../support/run-main.js';
import { commandBody, slackHeaders, viewSubmissionBody } from '../support/slack-signing.js';
import { until } from '../support/until.js';

const SECRET = 'shutdown0signing0secret0for0tests';
const BOT = 'xoxb-stop';
const RESTARTING = 'License Desk is restarting; try again in a minute.';
const DAY = 86_400_000;

let eventsUrl = '';
let seq = 0;

const rig = mainRig({ name: 'shutdown', secret: SECRET, botToken: BOT });

async function startMain(drainSeconds: number): Promise<void> {
  const main = rig.start({ LICENSE_VIEWERS: TEST_USERS.viewer, SHUTDOWN_DRAIN_SECONDS: String(drainSeconds) });
  eventsUrl = await eventsUrlOf(main);
}

async function post(body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(eventsUrl, { method: 'POST', headers: slackHeaders(SECRET, body), body });
  return { status: res.status, text: await res.text() };
}

function command(text: string, responseId: string, userId: string = TEST_USERS.admin) {
  return post(
    commandBody({
      team_id: 'T0ACME0001',
      channel_id: 'C0LICOPS01',
      user_id: userId,
      user_name: 'dana.lee',
      command: '/licenses',
      text,
      api_app_id: 'A0LICBOT01',
      response_url: rig.slack.responseUrl(responseId),
      trigger_id: `${Date.now()}.${++seq}.trigger`,
    }),
  );
}

function submitView(
  view: { id: string; callback_id: string; private_metadata?: string; blocks?: unknown[] },
  state: unknown,
) {
  return post(viewSubmissionBody(view, state, `${Date.now()}.${++seq}.trigger`));
}

/** Opens the change-end-date modal of `licenseId` and returns it once filled (loading view, then form). */
async function openExtendModal(licenseId: string) {
  const from = rig.slack.calls.length;
  await command(`extend ${licenseId}`, `open-${licenseId}`);
  const after = (c: (typeof rig.slack.calls)[number]) => rig.slack.calls.indexOf(c) >= from;
  await rig.slack.waitForCall('views.open', after, 10_000);
  const form = await rig.slack.waitForCall(
    'views.update',
    (c) => after(c) && viewOf(c).callback_id === CallbackId.extendForm,
    10_000,
  );
  return viewOf(form);
}

/** The exit code, or a failure if the process is still running `ms` after the call. */
async function exitWithin(ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${ms} ms after SIGTERM`)), ms);
  });
  try {
    return await Promise.race([rig.main?.exited ?? Promise.resolve(null), late]);
  } finally {
    clearTimeout(timer);
  }
}

const logLines = () => logLinesOf(rig.main);
const auditTable = () => auditTableIn(rig.dataDir);
const inFlight = (method: string, path: string) =>
  rig.sandbox.requests.some((r) => r.method === method && r.url.startsWith(path) && r.status === 0);
/** The one bulk job in the process's database (SQLite in DATA_DIR), read by a connection of the test's own. */
async function bulkJobInDatabase(): Promise<BulkJob | undefined> {
  const records = await openRecords({ dataDir: rig.dataDir, heartbeatMs: 0 });
  try {
    const [only] = await records.db.selectFrom('bulk_jobs').select('id').execute();
    return await createBulkJobStore(records, { owner: 'test' }).load(only?.id ?? '');
  } finally {
    await records.close();
  }
}
const answerOf = (responseId: string) => (p: ResponseUrlPost) =>
  p.id === responseId && !String(p.body.text).includes('Working on it');

describe('SIGTERM with work in flight', () => {
  it('lets a change in flight finish, audits and tells it, answers the read in flight, turns new work away, exits 0', async () => {
    await startMain(20);
    const view = await openExtendModal('4002');
    const day = new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10);
    rig.sandbox.addFault({ kind: 'latency', latencyMs: 2_500, method: 'PATCH' });
    rig.sandbox.addFault({ kind: 'latency', latencyMs: 2_500, method: 'GET', path: /^\/v1\/pools/ });

    const submitted = await submitView(view, extendState({ date: day }));
    expect(JSON.parse(submitted.text)).toMatchObject({ response_action: 'update' });
    await command('pools', 'read-in-flight');
    await until(
      'the PATCH and the pools read to be in flight',
      () => inFlight('PATCH', '/v1/license/4002') && inFlight('GET', '/v1/pools'),
    );

    rig.main?.child.kill('SIGTERM');
    await rig.main?.waitFor(/"message":"stopping"/);
    const turnedAway = await command('pools', 'after-sigterm', TEST_USERS.viewer);
    expect(turnedAway.status).toBe(200);
    // The test's licensing service is a sandbox by URL, so the reply carries the Sandbox marker too.
    const answer = JSON.parse(turnedAway.text) as { response_type?: string; text?: string };
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.text).toBe(`[Sandbox] ${RESTARTING}`);

    // Bounded by SHUTDOWN_DRAIN_SECONDS plus the closes, never the 2.5 s of the fault alone.
    expect(await exitWithin(28_000)).toBe(0);

    // The change landed, the modal shows it, the audit trail has it in the table and the log.
    expect(rig.sandbox.inspect.license('4002')?.end.slice(0, 10)).toBe(day);
    const outcome = rig.slack.calls.filter((c) => c.method === 'views.update' && c.args.view_id === view.id).at(-1);
    expect(outcome && textOf(viewOf(outcome).blocks)).toContain('Moved the end of license `4002`');
    const entry = { action: 'extend', outcome: 'done', licenseId: '4002', actor: TEST_USERS.admin };
    expect(auditTable()).toContainEqual(expect.objectContaining(entry));
    expect(logLines()).toContainEqual(expect.objectContaining({ message: 'audit', ...entry }));
    // The read in flight got its real answer, not "Something went wrong".
    const read = rig.slack.responses.filter(answerOf('read-in-flight')).at(-1);
    expect(read && textOf(read.body)).toContain('available');
    expect(rig.slack.responses.map((p) => textOf(p.body)).join('\n')).not.toContain('went wrong');
  }, 40_000);

  it('past the bound: cuts the change off, audits and tells "outcome unknown", the read says License Desk is restarting, exits 0', async () => {
    await startMain(1);
    const view = await openExtendModal('4003');
    const before = rig.sandbox.inspect.license('4003')?.end;
    const day = new Date(Date.now() + 45 * DAY).toISOString().slice(0, 10);
    rig.sandbox.addFault({ kind: 'hang', method: 'PATCH' });
    rig.sandbox.addFault({ kind: 'hang', method: 'GET', path: /^\/v1\/pools/ });

    await submitView(view, extendState({ date: day }));
    await command('pools', 'read-in-flight');
    await until(
      'the PATCH and the pools read to be in flight',
      () => inFlight('PATCH', '/v1/license/4003') && inFlight('GET', '/v1/pools'),
    );

    rig.main?.child.kill('SIGTERM');
    expect(await exitWithin(20_000)).toBe(0);

    const outcome = rig.slack.calls.filter((c) => c.method === 'views.update' && c.args.view_id === view.id).at(-1);
    const told = outcome ? textOf(viewOf(outcome).blocks) : '';
    expect(told).toContain('License Desk is restarting and stopped waiting for the licensing service');
    expect(told).toContain('/licenses show 4003');
    const entry = { action: 'extend', outcome: 'unknown', licenseId: '4003', actor: TEST_USERS.admin };
    const audited = auditTable().find((e) => e.licenseId === '4003');
    expect(audited).toMatchObject(entry);
    expect(String(audited?.detail)).toContain('License Desk stopped before the licensing service answered');
    expect(logLines()).toContainEqual(expect.objectContaining({ message: 'audit', ...entry }));
    expect(logLines()).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('cutting it off'), changes: 1 }),
    );
    // The hanging PATCH was never applied by the sandbox; nothing claims it was.
    expect(rig.sandbox.inspect.license('4003')?.end).toBe(before);
    const read = rig.slack.responses.filter(answerOf('read-in-flight')).at(-1);
    expect(read && textOf(read.body)).toContain(RESTARTING);
    expect(rig.slack.responses.map((p) => textOf(p.body)).join('\n')).not.toContain('went wrong');
  }, 40_000);

  it('a bulk job stops after its current line, which is recorded as done; the next start resumes it, assigning nobody twice', async () => {
    const emails = ['ann.shutdown@contoso.com', 'ben.shutdown@contoso.com', 'cy.shutdown@contoso.com'];
    const assigns = () => rig.sandbox.requests.filter((r) => r.method === 'POST' && r.url === '/v1/pool/2001/license');
    await startMain(20);
    const from = rig.slack.calls.length;
    await command('bulk', 'bulk-open');
    const form = await rig.slack.waitForCall(
      'views.update',
      (c) => rig.slack.calls.indexOf(c) >= from && viewOf(c).callback_id === DeskCallbackId.bulkForm,
      10_000,
    );
    const lists = Object.fromEntries(
      [1, 2, 3, 4, 5].map((n) => {
        const id = BulkInputId.list(n);
        return [id.block, { [id.action]: { type: 'plain_text_input', value: n === 1 ? emails.join('\n') : null } }];
      }),
    );
    const state = {
      values: {
        [BulkInputId.pool.block]: {
          [BulkInputId.pool.action]: {
            type: 'static_select',
            selected_option: { value: '2001', text: { type: 'plain_text', text: '2001' } },
          },
        },
        [BulkInputId.endDate.block]: { [BulkInputId.endDate.action]: { type: 'datepicker', selected_date: null } },
        ...lists,
      },
    };
    const checked = JSON.parse((await submitView({ ...viewOf(form), id: 'V0BULKFORM' }, state)).text) as {
      view?: { external_id?: string };
    };
    const report = await rig.slack.waitForCall(
      'views.update',
      (c) => c.args.external_id !== undefined && c.args.external_id === checked.view?.external_id,
      10_000,
    );
    expect(textOf(viewOf(report).blocks)).toMatch(/ready: 3/);
    // Each assign takes 2.5 s: SIGTERM lands while the first is in flight.
    rig.sandbox.addFault({ kind: 'latency', latencyMs: 2_500, method: 'POST' });
    const started = await submitView(
      { ...viewOf(report), id: 'V0BULKCONF', callback_id: DeskCallbackId.bulkConfirm },
      {
        values: {},
      },
    );
    expect(JSON.parse(started.text)).toMatchObject({ response_action: 'clear' });
    await until('the first assign to be in flight', () => assigns().length === 1);

    rig.main?.child.kill('SIGTERM');
    expect(await exitWithin(28_000)).toBe(0);

    const job = await bulkJobInDatabase();
    expect(job?.state).toBe('running');
    expect(job?.rows.map((r) => r.outcome ?? r.state)).toEqual(['assigned', 'pending', 'pending']);
    expect(assigns()).toHaveLength(1);

    rig.sandbox.clearFaults();
    await startMain(20);
    await rig.main?.waitFor(/"message":"bulk job finished"/, 20_000);
    const done = await bulkJobInDatabase();
    expect(done?.state).toBe('done');
    expect(done?.rows.map((r) => r.outcome)).toEqual(['assigned', 'assigned', 'assigned']);
    expect(assigns()).toHaveLength(3);
  }, 60_000);
});
