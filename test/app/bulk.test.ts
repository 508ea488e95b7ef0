/**
 * Bulk assignment end to end: `/licenses bulk` opens the modal, the form's submission is
 * checked line by line (dry run, no writes), the confirmation starts a job at background priority whose
 * progress lives in one DM message, other commands stay responsive, and a restart in the middle assigns
 * nobody twice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoData, type RunningSandbox, startSandbox } from '../../local/sandbox/index.js';
import { type BulkJob, createBulkJobStore, type JobRow } from '../../src/bulk/db/store.js';
import { BulkInputId, DeskCallbackId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { openRecords } from '../../src/kernel/db/open.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { bulkFormValues } from '../support/bulk.js';
import { type FakeSlack, type SlackCall, startFakeSlack } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { callSandbox } from '../support/sandbox.js';
import { until } from '../support/until.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'desk-bulk-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

type View = { callback_id?: string; private_metadata?: string; blocks?: unknown[] };

async function openForm(t: TestApp, userId = TEST_USERS.admin): Promise<View> {
  const before = t.slack.calls.length;
  const r = await t.command('bulk', { userId });
  expect(r.status).toBe(200);
  const opened = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= before);
  expect(allText(opened.args.view)).toContain('Reading your pools');
  const update = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= before, 10_000);
  const view = update.args.view as View;
  expect(view.callback_id).toBe(DeskCallbackId.bulkForm);
  expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  return view;
}

/** Submits the form; returns the ack body and the report view that replaces the pushed "checking" view. */
async function dryRun(t: TestApp, poolId: string, lists: string[], endDate?: string) {
  const before = t.slack.calls.length;
  const ack = await t.viewSubmission({
    view: { callback_id: DeskCallbackId.bulkForm, state: { values: bulkFormValues(poolId, lists, endDate) } },
  });
  expect(ack.status).toBe(200);
  const body = JSON.parse(ack.body || '{}') as {
    response_action?: string;
    view?: { external_id?: string };
    errors?: Record<string, string>;
  };
  if (body.response_action !== 'push') return { body, report: undefined };
  const update = await t.slack.waitForCall(
    'views.update',
    (c) => t.slack.calls.indexOf(c) >= before && c.args.external_id === body.view?.external_id,
    10_000,
  );
  const report = update.args.view as View;
  expect(checkBlockKitLimits(report, 'view')).toEqual([]);
  return { body, report };
}

async function confirm(t: TestApp, report: View, values: Record<string, unknown> = {}, userId = TEST_USERS.admin) {
  const ack = await t.viewSubmission(
    { view: { callback_id: DeskCallbackId.bulkConfirm, private_metadata: report.private_metadata, state: { values } } },
    { userId },
  );
  expect(ack.status).toBe(200);
  return JSON.parse(ack.body || '{}') as { response_action?: string; errors?: Record<string, string>; view?: View };
}

/** Assign requests the sandbox accepted (a 429 is refused before anything happens, and retried). */
const posts = (s: RunningSandbox, poolId: string) =>
  s.requests.filter((r) => r.method === 'POST' && r.url === `/v1/pool/${poolId}/license` && r.status !== 429);
/** The finished job's last message: the per-line results in the progress message's thread. */
async function finished(slack: FakeSlack, after: number): Promise<SlackCall> {
  const done = await slack.waitForCall(
    'chat.update',
    (c) => slack.calls.indexOf(c) >= after && allText(c.args).includes('Bulk assignment finished'),
    25_000,
  );
  await slack.waitForCall(
    'chat.postMessage',
    (c) => slack.calls.indexOf(c) > slack.calls.indexOf(done) && c.args.thread_ts === done.args.ts,
  );
  return done;
}

const AUDIT_CHANNEL = 'C0AUDIT001';

describe('bulk assign: every row outcome, seats, progress, audit', () => {
  const t = appPerFile('bulk-', (dataDir) => startTestApp({ dataDir, auditChannel: AUDIT_CHANNEL }));
  beforeAll(async () => {
    // Carol already holds a license for the course (Power Query Fundamentals) of pool 2007.
    const r = await callSandbox(t.sandbox, 'POST', '/v1/pool/2007/license', {
      body: { email: 'carol@contoso.com', name: 'Carol' },
    });
    expect(r.status).toBe(200);
  });

  it('a viewer cannot open it; the form offers only pools that can take students', async () => {
    const r = await t.command('bulk', { userId: TEST_USERS.viewer });
    const reply = await r.waitForResponse();
    expect(String(reply.body.text)).toContain('Only license admins');
    // The refused attempt is in the audit trail (and its channel), as a refused click is.
    await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === AUDIT_CHANNEL && allText(c.args).includes('tried to use `/licenses bulk`'),
    );
    const form = await openForm(t);
    const text = allText(form);
    expect(text).toContain('pool 2007');
    expect(text).not.toContain('pool 2006'); // ended
  });

  it('inline errors for an empty list or a past date, with no licensing call', async () => {
    const before = t.sandbox.requests.length;
    const { body } = await dryRun(t, '2007', [''], '2020-01-01');
    expect(body.response_action).toBe('errors');
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(
      [BulkInputId.endDate.block, BulkInputId.list(1).block].sort(),
    );
    expect(t.sandbox.requests.length).toBe(before);
  });

  it('the dry run reports each row, writes nothing, and the job assigns the ready ones once, in the background', async () => {
    const postsBefore = t.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === AUDIT_CHANNEL,
    ).length;
    const list = [
      'Ada One, ada.one@contoso.com',
      'not-an-email',
      'Bob <bob@gmail.com>',
      'carol@contoso.com',
      'ADA.ONE@contoso.com',
      'dan@fabrikam.com; Dan Two',
      '<!channel> Eve, eve@contoso.com',
    ];
    const before = t.sandbox.requests.length;
    const { report } = await dryRun(t, '2007', [list.slice(0, 4).join('\n'), list.slice(4).join('\n')]);
    const text = allText(report);
    expect(text).toMatch(/ready: 3/);
    expect(text).toMatch(/invalid e-mail: 1/);
    expect(text).toMatch(/domain not allowed: 1/);
    expect(text).toMatch(/already enrolled: 1/);
    expect(text).toMatch(/duplicate in the list: 1/);
    expect(text).toContain('3 needed · 4 free');
    expect(text).not.toContain('<!channel>');
    expect(t.sandbox.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);

    const mark = t.slack.calls.length;
    const ack = await confirm(t, report ?? {});
    expect(ack.response_action).toBe('clear');
    const done = await finished(t.slack, mark);
    expect(allText(done.args)).toContain('3 of 3 assigned');
    expect(posts(t.sandbox, '2007').length).toBe(1 + 3); // Carol's setup, then three
    for (const email of ['ada.one@contoso.com', 'dan@fabrikam.com', 'eve@contoso.com']) {
      expect(t.sandbox.inspect.licenses({ poolId: '2007' }).filter((l) => l.student.email === email)).toHaveLength(1);
    }
    expect(t.sandbox.inspect.student({ email: 'dan@fabrikam.com' })?.name).toBe('Dan Two');
    // One progress message in the DM, edited in place; the per-line results in its thread.
    const dm = t.slack.calls.filter((c) => c.method === 'chat.postMessage' && String(c.args.channel).startsWith('D'));
    const progress = dm.filter((c) => c.args.thread_ts === undefined);
    expect(progress).toHaveLength(1);
    const results = dm
      .filter((c) => c.args.thread_ts !== undefined)
      .map((c) => allText(c.args))
      .join('\n');
    for (const word of ['assigned', 'invalid e-mail', 'domain not allowed', 'already enrolled', 'duplicate']) {
      expect(results).toContain(word);
    }
    for (const c of dm) expect(checkBlockKitLimits(c.args)).toEqual([]);
    // Every line is audited (log and file); the audit channel gets one summary for the job, not one post a line.
    const audit = (await t.audit.recent(20)) ?? [];
    const lines = audit.filter((e) => e.action === 'bulk-assign' && e.quiet);
    expect(lines.filter((e) => e.outcome === 'done')).toHaveLength(3);
    const summary = await t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === AUDIT_CHANNEL && allText(c.args).includes('finished, 3 lines'),
    );
    expect(allText(summary.args)).toContain('3 assigned');
    const after = (await t.audit.recent(20)) ?? [];
    expect(after.filter((e) => e.action === 'bulk-assign' && !e.quiet)).toHaveLength(1);
    const channelPosts = t.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && c.args.channel === AUDIT_CHANNEL,
    );
    expect(channelPosts).toHaveLength(postsBefore + 1);
    expect(allText(summary.args)).not.toContain('<!channel>');
  });

  it('a repeated confirmation starts nothing', async () => {
    const { report } = await dryRun(t, '2007', ['frank@contoso.com']);
    const mark = t.slack.calls.length;
    expect((await confirm(t, report ?? {})).response_action).toBe('clear');
    const again = await confirm(t, report ?? {});
    expect(allText(again.view)).toMatch(/expired or was already started/);
    await finished(t.slack, mark);
    expect(
      t.sandbox.inspect.licenses({ poolId: '2007' }).filter((l) => l.student.email === 'frank@contoso.com'),
    ).toHaveLength(1);
  });

  it('a full transferable pool: recycling only after ticking the box that names how many seats', async () => {
    const { report } = await dryRun(t, '2003', ['gina@contoso.com\nhank@fabrikam.com']);
    const text = allText(report);
    expect(text).toContain('2 seats short');
    expect(text).toContain('end 2 licenses to free 2 seats');
    const oldest = t.sandbox.inspect
      .licenses({ poolId: '2003' })
      .sort((a, b) => a.start.localeCompare(b.start))
      .slice(0, 2)
      .map((l) => l.id);
    const refused = await confirm(t, report ?? {});
    expect(refused.response_action).toBe('errors');
    expect(Object.keys(refused.errors ?? {})).toEqual([BulkInputId.recycle.block]);
    expect(posts(t.sandbox, '2003')).toHaveLength(0);
    const ticked = {
      [BulkInputId.recycle.block]: {
        [BulkInputId.recycle.action]: { type: 'checkboxes', selected_options: [{ value: 'free:2' }] },
      },
    };
    const mark = t.slack.calls.length;
    expect((await confirm(t, report ?? {}, ticked)).response_action).toBe('clear');
    expect(allText((await finished(t.slack, mark)).args)).toContain('2 of 2 assigned');
    for (const id of oldest) expect(t.sandbox.inspect.license(id)?.active).toBe(false);
    expect(t.sandbox.inspect.pool('2003')?.availableLicenses).toBe(0);
  });
});

describe('bulk assign: responsiveness and a restart in the middle', () => {
  it('other commands answer at once during a job; a restart resumes without assigning anyone twice', async () => {
    const dir = await tempDir();
    const data = buildDemoData(new Date());
    const pool = data.pools.find((p) => p.id === '2007');
    if (pool) pool.licenses = 80;
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: data,
      rateLimit: { limit: 25, windowMs: 3000 },
    });
    const slack = await startFakeSlack();
    const emails = Array.from({ length: 45 }, (_, i) => `learner${i + 1}@contoso.com`);
    try {
      const a = await startTestApp({ dataDir: dir, useSandbox: sandbox, useSlack: slack });
      const { report } = await dryRun(a, '2007', [emails.join('\n')]);
      expect(allText(report)).toMatch(/ready: 45/);
      expect((await confirm(a, report ?? {})).response_action).toBe('clear');

      // Mid-job: the background cap (20 of 25) is taken; an interactive command still finds a slot.
      await until('20 assigns in pool 2007', () => posts(sandbox, '2007').length >= 20, 15_000);
      const sentAt = Date.now();
      const cmd = await a.command('pools', { userId: TEST_USERS.viewer });
      const answer = await cmd.waitForResponse((p) => allText(p.body).includes('License pools'), 10_000);
      const poolsGet = sandbox.requests.find((r) => r.method === 'GET' && r.url === '/v1/pools' && r.at >= sentAt);
      expect(poolsGet).toBeDefined();
      const writesBetween = posts(sandbox, '2007').filter((r) => r.at >= sentAt && r.at <= (poolsGet?.at ?? 0));
      expect(writesBetween.length).toBeLessThanOrEqual(2);
      expect(answer.body.text).toBeTruthy();
      const unfinished = posts(sandbox, '2007').length < 45;
      expect(unfinished).toBe(true);

      // Stop mid-job, then fake the worst crash: one assigned row recorded as still in flight.
      await a.close();
      /** The job as the database (SQLite in DATA_DIR) has it, read by a connection of the test's own. */
      const inDatabase = async (change?: (job: BulkJob) => JobRow[]): Promise<BulkJob> => {
        const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
        try {
          const store = createBulkJobStore(records, { owner: 'test' });
          const [only] = await records.db.selectFrom('bulk_jobs').select('id').execute();
          const found = await store.load(only?.id ?? '');
          if (!found) throw new Error('no bulk job in the database');
          if (change) {
            expect(await store.claim(found.id)).toBe(true);
            await store.saveRows(found, change(found));
            await store.release(found.id);
          }
          return found;
        } finally {
          await records.close();
        }
      };
      const job = await inDatabase();
      expect(job.state).toBe('running');
      const doneRows = job.rows.filter((r) => r.outcome === 'assigned');
      expect(doneRows.length).toBeGreaterThan(0);
      expect(doneRows.length).toBeLessThan(45);
      const inFlight = doneRows[doneRows.length - 1];
      await inDatabase(() => (inFlight ? [{ line: inFlight.line, email: inFlight.email, state: 'sending' }] : []));

      const b = await startTestApp({ dataDir: dir, useSandbox: sandbox, useSlack: slack });
      try {
        expect(b.desk?.resumed).toBe(1);
        await b.deps.desk?.runner.settled(job.id);
        const final = await inDatabase();
        expect(final.state).toBe('done');
        expect(final.rows.every((r) => r.outcome === 'assigned')).toBe(true);
        expect(final.rows.find((r) => r.line === inFlight?.line)?.recovered).toBe(true);
        // Exactly one write per student, across both processes, and one license each.
        expect(posts(sandbox, '2007')).toHaveLength(45);
        const licenses = sandbox.inspect.licenses({ poolId: '2007', includeInactive: true });
        for (const email of emails) expect(licenses.filter((l) => l.student.email === email)).toHaveLength(1);
        // The resumed job kept editing the same progress message.
        const updates = slack.calls.filter(
          (c: SlackCall) => c.method === 'chat.update' && c.args.ts === job.progress?.ts,
        );
        expect(allText(updates.at(-1)?.args)).toContain('45 of 45 assigned');
      } finally {
        await b.close();
      }
    } finally {
      await sandbox.close();
      await slack.close();
    }
  }, 60_000);
});
