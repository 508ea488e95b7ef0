import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkJob, createBulkJobStore } from '../../../src/bulk/db/store.js';
import { createBulkRunner } from '../../../src/bulk/services/bulk-runner.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { AssignRequest, Student } from '../../../src/kernel/domain/types.js';
import { BadRequestError, RateBudgetUnavailableError, ServerError } from '../../../src/kernel/licensing/errors.js';
import { pendingRows, runningBulkJob } from '../../support/bulk.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { makeLicense, makeStudent, makeStudentCourse, NOW } from '../../support/fixtures.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const notifier = { started: async () => undefined, progress: async () => undefined, finished: async () => undefined };
let dir: string;
let records: Records;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-'));
  records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
});
afterEach(async () => {
  await records.close();
  await rm(dir, { recursive: true, force: true });
});

const job = (rows: BulkJob['rows']): BulkJob => runningBulkJob('j1', rows);

/** Runs job j1 with pending rows for `emails` on `licensing` until it settles; the store it ran on. */
async function runSettled(licensing: ReturnType<typeof createFakeLicensing>, emails: string[]) {
  const store = createBulkJobStore(records);
  const runner = createBulkRunner({ licensing, store, logger, now: () => NOW });
  await runner.start(job(pendingRows(emails)), notifier);
  await runner.settled('j1');
  return store;
}

describe('bulk runner', () => {
  it('a row left in flight by the last process is read back, not sent again', async () => {
    const held = makeStudent({ email: 'held@x.com', courses: [makeStudentCourse({ poolId: '101', licenseId: '9' })] });
    const fake = createFakeLicensing({ students: [held] });
    const sent: AssignRequest[] = [];
    fake.pools.assign = async (_id, body) => {
      sent.push(body);
      return makeLicense({ id: `L-${body.email}` });
    };
    const store = createBulkJobStore(records);
    await store.adopt(
      job([
        { line: 1, email: 'held@x.com', state: 'sending' },
        { line: 2, email: 'new@x.com', state: 'pending' },
      ]),
    );
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
    expect(await runner.resumeAll(() => notifier)).toBe(1);
    await runner.settled('j1');
    await runner.stop(1000);
    const done = await store.load('j1');
    expect(done?.state).toBe('done');
    expect(done?.rows.map((r) => [r.outcome, r.licenseId, r.recovered ?? false])).toEqual([
      ['assigned', '9', true],
      ['assigned', 'L-new@x.com', false],
    ]);
    expect(sent.map((b) => b.email)).toEqual(['new@x.com']);
    expect(fake.calls.find((c) => c.method === 'students.find')?.opts?.priority).toBe('background');
  });

  it('an unclear write is resolved by reading back; a refusal keeps the API’s reason', async () => {
    const students: Student[] = [];
    const fake = createFakeLicensing({ students });
    const endpoint = 'POST /v1/pool/{id}/license';
    const outcomes: Record<string, () => never> = {
      'lost@x.com': () => {
        throw new ServerError({ endpoint, status: 502, outcomeUnknown: true });
      },
      'refused@x.com': () => {
        throw new BadRequestError('No license is available in this pool.', { endpoint });
      },
      'kept@x.com': () => {
        // The service did assign it, then the answer was lost on the way back.
        students.push(
          makeStudent({
            email: 'kept@x.com',
            courses: [makeStudentCourse({ poolId: '101', licenseId: 'L-kept' })],
          }),
        );
        throw new ServerError({ endpoint, status: 502, outcomeUnknown: true });
      },
    };
    const sent: string[] = [];
    fake.pools.assign = async (_id, body) => {
      sent.push(body.email);
      outcomes[body.email]?.();
      return makeLicense();
    };
    const store = await runSettled(fake, ['lost@x.com', 'refused@x.com', 'kept@x.com']);
    const [lost, refused, kept] = (await store.load('j1'))?.rows ?? [];
    expect(lost?.outcome).toBe('failed');
    expect(lost?.detail).toMatch(/reading back shows it was not assigned/);
    expect(refused?.outcome).toBe('refused');
    expect(refused?.detail).toBe('Refused: No license is available in this pool.');
    expect(kept).toMatchObject({ outcome: 'assigned', licenseId: 'L-kept', recovered: true });
    // Each row was sent once: an unclear answer is read back, never sent again.
    expect(sent).toEqual(['lost@x.com', 'refused@x.com', 'kept@x.com']);
  });

  it('the shared rate budget away (Redis down): the row is not marked failed, the job pauses with it pending', async () => {
    const fake = createFakeLicensing({});
    const sent: string[] = [];
    fake.pools.assign = async (_id, body) => {
      if (body.email === 'b@x.com') {
        throw new RateBudgetUnavailableError('connect ECONNREFUSED', { endpoint: 'POST /v1/pool/{id}/license' });
      }
      sent.push(body.email);
      return makeLicense({ id: `L-${body.email}` });
    };
    const store = await runSettled(fake, ['a@x.com', 'b@x.com', 'c@x.com']);
    const kept = await store.load('j1');
    expect(kept?.state).toBe('running');
    expect(kept?.rows.map((r) => r.outcome ?? r.state)).toEqual(['assigned', 'pending', 'pending']);
    expect(sent).toEqual(['a@x.com']);
  });
});
