/**
 * The real process refuses to start over records it cannot read, with a sentence that names the file:
 * a database damaged after a first run (truncated), and, on the first start with the database, a
 * truncated requests.json, waitlist.json or bulk job file left in DATA_DIR by an earlier version. It
 * never starts empty in their place: the file is still there for the operator to restore.
 */
import { mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/bulk/domain/bulk-job.js';
import type { WaitlistLines } from '../../src/requests/domain/waitlist.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { sampleRequest } from '../support/requests.js';

const DATABASE = 'license-desk.sqlite';

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: NORA_ASKS.channel } });
});

afterEach(async () => {
  await desk?.close();
});

/** The start must fail: exit code not 0, no "started" line, and the sentence on stderr naming `file`. */
async function expectRefusal(file: string): Promise<string> {
  const main = desk.launch();
  // A start that goes on over the file is the failure: it is stopped and reported at once.
  const started = await main.waitFor(/"message":"License Desk started"/, 30_000).then(
    () => true,
    () => false,
  );
  if (started) await desk.kill();
  const code = await main.exited;
  const { stdout, stderr } = main.output();
  const warnings = stdout.split('\n').filter((l) => l.includes('"level":"warn"') || l.includes('"level":"error"'));
  expect(started, `the process started over ${file}; its warnings:\n${warnings.join('\n')}`).toBe(false);
  expect(code, `${stdout}\n${stderr}`).not.toBe(0);
  const sentence = stderr.split('\n').find((l) => l.startsWith('License Desk could not start:')) ?? '';
  expect(sentence, stderr).toContain(file);
  return sentence;
}

/** A first run that keeps a record: a member's request, its card posted. Stopped with SIGTERM. */
async function firstRun(): Promise<void> {
  const main = await desk.start();
  await watchRequest(() => desk, NORA_ASKS).askWithForm('VDAMAGE01');
  main.child.kill('SIGTERM');
  expect(await main.exited).toBe(0);
}

describe('records the start cannot read', () => {
  it('(d) the database truncated after a first run: the start refuses, naming the file, and leaves it in place', async () => {
    await firstRun();
    const file = join(desk.dataDir, DATABASE);
    const size = statSync(file).size;
    truncateSync(file, Math.floor(size / 2));
    const sentence = await expectRefusal(file);
    expect(sentence).toMatch(/damaged/);
    expect(statSync(file).size).toBe(Math.floor(size / 2));
  }, 60_000);

  it('(d) the database emptied (0 bytes) after a first run: the start refuses too, instead of starting with no records', async () => {
    await firstRun();
    const file = join(desk.dataDir, DATABASE);
    truncateSync(file, 0);
    await expectRefusal(file);
  }, 60_000);

  it('(f) a course request row cut short after a first run: the start goes on, and its records check names the row in a warning', async () => {
    await firstRun();
    const file = join(desk.dataDir, DATABASE);
    const db = new Database(file);
    const row = db.prepare('select id, body from requests').get() as { id: string; body: string };
    db.prepare('update requests set body = ? where id = ?').run(row.body.slice(0, 40), row.id);
    db.close();
    const main = await desk.start();
    await main.waitFor(/"message":"License Desk started"/, 30_000);
    const warning =
      main
        .output()
        .stdout.split('\n')
        .find((l) => l.includes('records check: course requests that cannot be read')) ?? '';
    expect(warning).toContain('"level":"warn"');
    expect(warning).toContain(row.id);
    // The row's id, never what it held (the requester's e-mail).
    expect(warning).not.toMatch(/@acme-learning|nora/i);
  }, 60_000);

  const request = sampleRequest('r0ld0file001');
  const lines: WaitlistLines = {
    '2003': [{ requestId: 'r0ld0file002', poolId: '2003', requester: 'U0WQADA001', since: '2026-11-20T09:00:00.000Z' }],
  };
  const job: BulkJob = {
    version: 1,
    id: 'j0ld0file001',
    requester: TEST_USERS.admin,
    poolId: '2001',
    courseTitle: 'Power BI Fundamentals',
    createdAt: '2026-11-20T09:00:00.000Z',
    state: 'running',
    rows: [],
    notSent: [],
  };
  const oldFiles: [string, string, string][] = [
    ['requests.json', 'requests.json', JSON.stringify({ version: 1, requests: { [request.id]: request } })],
    ['waitlist.json', 'waitlist.json', JSON.stringify(lines)],
    ['a bulk job file', join('bulk', `bulk-${job.id}.json`), JSON.stringify(job)],
  ];

  for (const [what, name, content] of oldFiles) {
    it(`(e) ${what} truncated, on the first start with the database: the start stops, naming the file`, async () => {
      const file = join(desk.dataDir, name);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, content);
      truncateSync(file, Math.floor(content.length / 2));
      await expectRefusal(name);
      // Nothing was moved aside or replaced: the operator still has the file to restore or repair.
      expect(statSync(file).size).toBe(Math.floor(content.length / 2));
      expect(readdirSync(join(file, '..')).filter((f) => f.includes('corrupt'))).toEqual([]);
    }, 60_000);
  }
});
