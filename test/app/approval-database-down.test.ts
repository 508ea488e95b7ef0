/**
 * An approval while License Desk's PostgreSQL stops answering (docs/records.md, "Course requests and
 * the waitlist"): signed clicks in, the fake Slack and the licensing sandbox out, the records on a
 * PostgreSQL database of the run's server, cut off (`allow_connections false` and its connections
 * ended) and let back in. What the approver reads must be true, and a write that went out while the
 * database was away is recorded by reading back soon after the database answers again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { openRecords, type Records } from '../../src/kernel/db/open.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { textOf } from '../support/change-flow.js';
import { cutOffDatabase, freshPostgresDatabase, letDatabaseBackIn, postgresSkipReason } from '../support/postgres.js';
import { clickInRequestsChannel, requestedThroughForm, selfServiceTo } from '../support/requests.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS1';
const DORA = { id: 'U0DBDOWN01', name: 'dora.down', email: 'dora.down@acme-learning.example' };
const POOL = '2005';
const skip = postgresSkipReason();

describe.skipIf(skip !== undefined)('an approval while PostgreSQL is down', () => {
  let t: TestApp;
  let records: Records;
  let dbName: string;
  let dir: string;

  /** The database refuses new connections and its open ones are ended: License Desk's records are away. */
  const databaseDown = () => cutOffDatabase(dbName);
  const databaseBack = () => letDatabaseBackIn(dbName);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'approval-db-down-'));
    const url = await freshPostgresDatabase();
    dbName = new URL(url).pathname.slice(1);
    records = await openRecords({ dataDir: dir, databaseUrl: url, heartbeatMs: 0 });
    t = await startTestApp({ records, slack: { users: [DORA] }, ...selfServiceTo(CHANNEL) });
  }, 60_000);
  afterAll(async () => {
    await databaseBack().catch(() => undefined);
    await t?.close();
    await records?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const dmChannel = (user: string) => `D${user.slice(1)}`;
  const assignPosts = () =>
    t.sandbox.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/pool/${POOL}/license`));

  /** `user` asks for pool 2005 with the signed form; the card reaches the channel: the request id. */
  const requested = (user: string) =>
    requestedThroughForm(t, { channel: CHANNEL, user, poolId: POOL, viewId: `VDBDOWN${user}` });

  const approve = (id: string) =>
    clickInRequestsChannel(
      t,
      { channel: CHANNEL, ts: '1767225600.000400' },
      RequestActionId.approve,
      id,
      TEST_USERS.admin,
    );

  it('down before the click: the approver reads that nothing was sent and to try again in a minute; nothing is sent', async () => {
    const id = await requested(TEST_USERS.nobody);
    const before = assignPosts().length;
    await databaseDown();
    try {
      const r = await approve(id);
      const answer = textOf((await r.waitForResponse(undefined, 20_000)).body.blocks);
      expect(answer).toContain('nothing was sent');
      expect(answer).toContain('try again in a minute');
      expect(answer).not.toContain('Sorry, something went wrong');
      expect(assignPosts().length).toBe(before);
    } finally {
      await databaseBack();
    }
    // Once it is back, the request is still undecided: the approver may approve it again.
    await until(
      'the records to answer again',
      async () => (await t.deps.requests?.store.get(id).catch(() => undefined)) !== undefined,
      20_000,
      200,
    );
    expect((await t.deps.requests?.store.get(id))?.status).toBe('pending');
  }, 60_000);

  it('down right after the POST: the approver reads the seat was assigned and need not click again; it settles once the database is back', async () => {
    const member = DORA.id;
    const id = await requested(member);
    // The licensing service is slow: the database goes away while the POST is on its way.
    t.sandbox.addFault({
      kind: 'latency',
      method: 'POST',
      path: new RegExp(`^/v1/pool/${POOL}/license$`),
      latencyMs: 1_500,
      times: 1,
    });
    const before = assignPosts().length;
    const r = await approve(id);
    await until('the assign POST to reach the licensing service', () => assignPosts().length > before, 10_000);
    await databaseDown();
    let answer: string;
    try {
      answer = textOf((await r.waitForResponse(undefined, 20_000)).body.blocks);
    } finally {
      await databaseBack();
    }
    const license = t.sandbox.inspect
      .licenses({ poolId: POOL })
      .find((l) => l.student.email === DORA.email && l.active);
    expect(license).toBeDefined();
    expect(answer).toContain(`license \`${license?.id}\` was assigned`);
    expect(answer).toContain('don’t need to click Approve again');
    expect(answer).not.toContain('Sorry, something went wrong');

    // The database is back: the request is recorded as assigned by reading back (never sent again),
    // and the requester and the approver are told, each once.
    await until(
      'the request to be recorded as assigned',
      async () => (await t.deps.requests?.store.get(id).catch(() => undefined))?.status === 'assigned',
      60_000,
      250,
    );
    expect(assignPosts().length).toBe(before + 1);
    await t.outbox?.flush();
    await until('the requester to be told', () =>
      t.slack.calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === dmChannel(member) &&
          textOf(c.args.blocks).includes('is yours'),
      ),
    );
    const toApprover = t.slack.calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.channel === dmChannel(TEST_USERS.admin) &&
        textOf(c.args.blocks).includes('went through'),
    );
    await until('the approver to be told it went through', () =>
      t.slack.calls.some(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === dmChannel(TEST_USERS.admin) &&
          textOf(c.args.blocks).includes('went through'),
      ),
    );
    expect(toApprover.length).toBeLessThanOrEqual(1);
  }, 120_000);
});
