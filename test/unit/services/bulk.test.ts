import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssignRequest } from '../../../src/domain/types.js';
import { ServerError } from '../../../src/licensing/errors.js';
import { type BulkJob, createBulkJobStore } from '../../../src/services/bulk-jobs.js';
import { createBulkRunner } from '../../../src/services/bulk-runner.js';
import { makeLicense, makeStudent, makeStudentCourse, NOW } from '../blocks/fixtures.js';
import { createFakeLicensing } from './fake-licensing.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const notifier = { started: async () => undefined, progress: async () => undefined, finished: async () => undefined };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function job(rows: BulkJob['rows']): BulkJob {
  return {
    version: 1,
    id: 'j1',
    requester: 'U0MGR00001',
    poolId: '101',
    courseTitle: 'C',
    createdAt: NOW.toISOString(),
    state: 'running',
    rows,
    notSent: [],
  };
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
    const store = createBulkJobStore(dir);
    await store.save(
      job([
        { line: 1, email: 'held@x.com', state: 'sending' },
        { line: 2, email: 'new@x.com', state: 'pending' },
      ]),
    );
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
    expect(await runner.resumeAll(() => notifier)).toBe(1);
    await runner.settled('j1');
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
    const fake = createFakeLicensing({ students: [] });
    const outcomes: Record<string, () => never> = {
      'lost@x.com': () => {
        throw new ServerError({ endpoint: 'POST /v1/pool/{id}/license', status: 502, outcomeUnknown: true });
      },
    };
    fake.pools.assign = async (_id, body) => {
      outcomes[body.email]?.();
      return makeLicense();
    };
    const store = createBulkJobStore(dir);
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW });
    await runner.start(job([{ line: 1, email: 'lost@x.com', state: 'pending' }]), notifier);
    await runner.settled('j1');
    const row = (await store.load('j1'))?.rows[0];
    expect(row?.outcome).toBe('failed');
    expect(row?.detail).toMatch(/reading back shows it was not assigned/);
  });
});
