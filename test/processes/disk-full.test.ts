/**
 * A full disk is said as such: at start (the real process, its SQLite driver's disk filled by a
 * preload at the driver boundary) and on a write (the app in process over signed HTTP, its database
 * kept from growing with SQLite's max_page_count), never as a damaged database, a failed rollback or
 * "something went wrong".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTimers } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_BOT_TOKEN, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { textOf } from '../support/change-flow.js';
import { mainRig } from '../support/main-rig.js';
import { requestFormView, sampleRequest } from '../support/requests.js';

const PRELOAD = fileURLToPath(new URL('../support/sqlite-disk-full.ts', import.meta.url));
const DISK_FULL = 'The disk is full: the database file';

describe('at start, the process says the disk is full', () => {
  const rig = mainRig({ name: 'disk-full', secret: 'diskfull0signing0secret0tests', botToken: TEST_BOT_TOKEN });

  it.each([
    ['its schema cannot be written', 'grow'],
    ['the journal cannot be set up at open', 'open'],
  ])(
    '%s: refused with "the disk is full" and what to do, not as a damaged database',
    async (_what, mode) => {
      const main = rig.start({ LICENSE_DESK_TEST_DISK_FULL: mode }, { nodeArgs: ['--import', PRELOAD] });
      expect(await main.exited).toBe(1);
      const { stderr } = main.output();
      expect(stderr).toContain(`License Desk could not start: ${DISK_FULL}`);
      expect(stderr).toContain(
        'cannot grow. Free some room on that disk (or give it more), then start License Desk again',
      );
      expect(stderr).not.toContain('damaged');
      expect(stderr).not.toContain('cannot rollback');
    },
    30_000,
  );
});

describe('on a write, the person is told the disk is full', () => {
  const CHANNEL = 'C0DISKFULL';
  let dir: string;
  let t: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'license-desk-full-'));
    t = await startTestApp({ dataDir: dir, requests: { channel: CHANNEL, timers: requestTimers(24, 7) } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a course request that cannot be recorded: the form says the disk is full, the log too, no "cannot rollback"', async () => {
    const db = t.records?.db;
    const store = t.deps.requests?.store;
    if (!db || !store) throw new Error('the app has no records');
    // Someone else's decided request nearly fills its table's first page, so the next one needs a new page.
    await store.put({
      ...sampleRequest('rfiller00001'),
      requester: 'U0FILLER01',
      status: 'denied',
      reason: 'filler '.repeat(430),
    });
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]?.page_count ?? 1;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db);
    // Whatever room the last pages still had is taken, as on a disk that filled up.
    for (let i = 0, full = false; !full; i++) {
      full = await db
        .insertInto('state')
        .values({ key: `filler-${i}`, value: 'x'.repeat(200), updated_at: new Date().toISOString() })
        .execute()
        .then(
          () => false,
          () => true,
        );
    }
    const long = 'I need this course for the reporting project. '.repeat(10);
    const sent = await t.viewSubmission(
      { view: requestFormView('VREQFULL01', '2002', { reason: long }) },
      { userId: TEST_USERS.nobody },
    );
    expect(sent.status).toBe(200);
    const shown = await t.slack.waitForCall(
      'views.update',
      (c) => c.args.view_id === 'VREQFULL01' && textOf(c.args.view).includes('disk'),
    );
    expect(textOf(shown.args.view)).toContain(
      'License Desk could not save this because the disk that holds its records is full',
    );
    expect(JSON.stringify(t.logs)).toContain('database or disk is full');
    expect(JSON.stringify(t.logs)).not.toContain('cannot rollback');
    expect(await t.deps.requests?.store.byRequester(TEST_USERS.nobody)).toEqual([]);
    // No card went out for a request that was not recorded.
    expect(t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)).toEqual([]);
  });
});
