/**
 * The real process refuses to start over records it cannot read, with a sentence that names the file:
 * a database damaged after a first run (truncated). It never starts empty in its place: the file is
 * still there for the operator to restore. (Files of an earlier version are no start's business: a
 * damaged one is refused by npm run import-old-records, test/processes/old-records.test.ts.)
 */
import { statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';

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
});
