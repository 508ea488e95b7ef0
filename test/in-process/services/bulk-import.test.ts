/**
 * The job files of an earlier version (DATA_DIR/bulk) move into the database once: each job with its
 * journal, the unfinished ones then run on (the row left 'sending' is read back, never sent blind),
 * and the directory is moved aside. A job file that cannot be read stops the start with its name,
 * and nothing is imported or moved.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkJob, createBulkJobStore } from '../../../src/bulk/db/store.js';
import { importBulkFiles } from '../../../src/bulk/services/bulk-import.js';
import { createBulkRunner } from '../../../src/bulk/services/bulk-runner.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import { pendingRows, runningBulkJob } from '../../support/bulk.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { makeLicense, makeStudent, makeStudentCourse, NOW } from '../../support/fixtures.js';

const notifier = { started: async () => undefined, progress: async () => undefined, finished: async () => undefined };
let dataDir: string;
let records: Records;
let logs: { message: string; fields: Record<string, unknown> | undefined }[];
const logger = {
  debug() {},
  info: (message: string, fields?: Record<string, unknown>) => logs.push({ message, fields }),
  warn() {},
  error() {},
};
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'bulk-import-'));
  records = await openRecords({ dataDir, heartbeatMs: 0 });
  logs = [];
});
afterEach(async () => {
  await records.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function job(id: string, emails: string[], extra: Partial<BulkJob> = {}): BulkJob {
  return runningBulkJob(id, pendingRows(emails), { progress: { channel: 'D0MGR', ts: '1.1' }, ...extra });
}

const bulkDir = () => join(dataDir, 'bulk');
function writeJobFiles(files: Record<string, string>): void {
  mkdirSync(bulkDir(), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(bulkDir(), name), text);
}

describe('importing the bulk job files', () => {
  it('imports each job with its journal, moves the files aside, and the unfinished job runs on, reading back its row in flight', async () => {
    const running = job('kx1-run', ['done@x.com', 'flight@x.com', 'next@x.com']);
    const finished = job('kx0-old', ['a@x.com'], { state: 'done', finishedAt: NOW.toISOString() });
    finished.rows[0] = { line: 1, email: 'a@x.com', state: 'done', outcome: 'assigned', licenseId: '5' };
    writeJobFiles({
      'bulk-kx1-run.json': `${JSON.stringify(running)}\n`,
      // Row 1 done and row 2 in flight, then a line the crash cut short.
      'bulk-kx1-run.rows': `${JSON.stringify({
        rows: [
          { line: 1, email: 'done@x.com', state: 'done', outcome: 'assigned', licenseId: '11' },
          { line: 2, email: 'flight@x.com', state: 'sending' },
        ],
      })}\n{"rows":[{"line":3,"ema`,
      'bulk-kx0-old.json': JSON.stringify(finished),
    });
    const store = createBulkJobStore(records);
    const result = await importBulkFiles(dataDir, store, logger, () => NOW);
    expect(result).toEqual({ jobs: 2, unfinished: 1, movedTo: `${bulkDir()}.imported` });
    expect(existsSync(bulkDir())).toBe(false);
    expect(readdirSync(`${bulkDir()}.imported`).sort()).toEqual([
      'bulk-kx0-old.json',
      'bulk-kx1-run.json',
      'bulk-kx1-run.rows',
    ]);
    expect(logs.map((l) => l.message)).toEqual([
      'bulk job files imported into the database; the files were moved aside',
    ]);
    expect(await store.load('kx0-old')).toEqual(finished);
    expect((await store.load('kx1-run'))?.rows.map((r) => r.state)).toEqual(['done', 'sending', 'pending']);

    // The row in flight had reached the service: it is read back, not sent again.
    const inFlight = makeStudent({
      email: 'flight@x.com',
      courses: [makeStudentCourse({ poolId: '101', licenseId: '12' })],
    });
    const fake = createFakeLicensing({ students: [inFlight] });
    const sent: string[] = [];
    fake.pools.assign = async (_id, body) => {
      sent.push(body.email);
      return makeLicense({ id: `L-${body.email}` });
    };
    const runner = createBulkRunner({ licensing: fake, store, logger, now: () => NOW, soleProcess: true });
    expect(await runner.resumeAll(() => notifier)).toBe(1);
    await runner.settled('kx1-run');
    await runner.stop(1000);
    const done = await store.load('kx1-run');
    expect(done?.state).toBe('done');
    expect(done?.progress).toEqual({ channel: 'D0MGR', ts: '1.1' });
    expect(done?.rows.map((r) => [r.outcome, r.licenseId, r.recovered ?? false])).toEqual([
      ['assigned', '11', false],
      ['assigned', '12', true],
      ['assigned', 'L-next@x.com', false],
    ]);
    expect(sent).toEqual(['next@x.com']);

    // Nothing is left to import at the next start.
    expect(await importBulkFiles(dataDir, store, logger, () => NOW)).toEqual({ jobs: 0, unfinished: 0 });
  });

  it('a job already in the database (a start stopped between import and move) is left as it is', async () => {
    const store = createBulkJobStore(records);
    const first = job('kx2', ['a@x.com']);
    writeJobFiles({ 'bulk-kx2.json': JSON.stringify(first) });
    await importBulkFiles(dataDir, store, logger, () => NOW);
    await store.claim('kx2');
    await store.saveRows(first, [{ line: 1, email: 'a@x.com', state: 'done', outcome: 'assigned' }]);
    writeJobFiles({ 'bulk-kx2.json': JSON.stringify(first) });
    const again = await importBulkFiles(dataDir, store, logger, () => NOW);
    expect(again.jobs).toBe(1);
    expect((await store.load('kx2'))?.rows[0]?.outcome).toBe('assigned');
    // The first move's name is taken: the second goes beside it.
    expect(readdirSync(dataDir).filter((f) => f.startsWith('bulk.imported'))).toHaveLength(2);
  });

  it.each([
    [
      'truncated JSON',
      '{"version":1,"id":"kx3","requester":"U0MGR00001","po',
      /Unexpected end of JSON input|Unterminated/,
    ],
    ['not a job', '{"hello":"world"}', /not a bulk job/],
  ])('a job file with %s stops the start with its name; nothing is imported or moved', async (_what, text, why) => {
    writeJobFiles({ 'bulk-kx2.json': JSON.stringify(job('kx2', ['a@x.com'])), 'bulk-kx3.json': text });
    const store = createBulkJobStore(records);
    const failure = await importBulkFiles(dataDir, store, logger, () => NOW).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    const path = join(bulkDir(), 'bulk-kx3.json');
    expect(failure?.message).toContain(`The bulk job file ${path} cannot be read (`);
    expect(failure?.message).toMatch(why);
    expect(failure?.message).toContain(`move it out of ${bulkDir()} to drop that job`);
    expect(failure?.message.split('. ')).toHaveLength(1);
    expect(await store.load('kx2')).toBeUndefined();
    expect(readdirSync(bulkDir()).sort()).toEqual(['bulk-kx2.json', 'bulk-kx3.json']);
  });
});
