/**
 * Writes in flight and messages to people, on SQLite and PostgreSQL: an intent left open by a process
 * that died is handed to its kind's handler once; one still in flight in a live process is not; a
 * message enqueued in a transaction exists only if the transaction committed, is delivered once, in
 * order, and is tried again after a failure.
 */
import { describe, expect, it } from 'vitest';
import type { Records } from '../../../src/kernel/db/open.js';
import { createOutbox, Unsendable } from '../../../src/kernel/services/outbox.js';
import { createIntents, createSettler, type Intent } from '../../../src/kernel/services/writes/intents.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const cleanups = cleanupsAfterEach();

/** A second process on the same database (a restart, or a replica). */
async function sibling(records: Records, alive: boolean): Promise<Records> {
  const id = `i-other-${Math.random().toString(36).slice(2)}`;
  const seen = alive ? new Date().toISOString() : '2020-01-01T00:00:00.000Z';
  await records.db.insertInto('instances').values({ id, started_at: seen, seen_at: seen }).execute();
  return { ...records, instance: id };
}

describe.each(testDatabases())('writes in flight on $dialect', ({ skip, open, dialect }) => {
  /** Fresh records, and a process on them that died. */
  async function withDeadProcess() {
    const t = await open();
    cleanups.push(t.close);
    return { t, dead: await sibling(t.records, false) };
  }

  it.skipIf(skip !== undefined)(
    'an intent left by a dead process is settled once; a live one is left alone',
    async () => {
      const { t, dead } = await withDeadProcess();
      const now = () => new Date();
      const deadIntents = createIntents(dead, now);
      const left = await dead.db.transaction().execute((trx) =>
        deadIntents.open(trx, {
          kind: 'revoke',
          owner: 'U1',
          subject: 'L1',
          poolId: '2003',
          body: { licenseId: 'L1' },
        }),
      );
      const live = await sibling(t.records, true);
      await live.db
        .transaction()
        .execute((trx) => createIntents(live, now).open(trx, { kind: 'revoke', owner: 'U2', subject: 'L2', body: {} }));
      const settler = createSettler({ records: t.records, logger, now });
      const seen: Intent[] = [];
      const intents = createIntents(t.records, now);
      settler.register('revoke', async (intent) => {
        seen.push(intent);
        await t.records.db.transaction().execute((trx) => intents.close(trx, intent.id, { gone: true }));
      });
      const settled = await settler.runOnce();
      // SQLite belongs to one process: any other process's intent is left over. PostgreSQL: only the dead one's.
      const expected = dialect === 'sqlite' ? ['L1', 'L2'] : ['L1'];
      expect(seen.map((i) => i.subject).sort()).toEqual(expected);
      expect(settled).toBe(expected.length);
      expect(seen.find((i) => i.subject === 'L1')).toMatchObject({
        kind: 'revoke',
        owner: 'U1',
        poolId: '2003',
        body: { licenseId: 'L1' },
      });
      expect(await settler.runOnce()).toBe(0);
      const row = await t.records.db.selectFrom('intents').selectAll().where('id', '=', left).executeTakeFirstOrThrow();
      expect(row.state).toBe('closed');
      expect(JSON.parse(row.outcome ?? 'null')).toEqual({ gone: true });
      expect(await intents.openFor('L1')).toBeUndefined();
    },
  );

  it.skipIf(skip !== undefined)(
    'a handler that fails (the API is down) leaves the intent for the next round',
    async () => {
      const { t, dead } = await withDeadProcess();
      const now = () => new Date();
      await dead.db
        .transaction()
        .execute((trx) =>
          createIntents(dead, now).open(trx, { kind: 'assign', owner: 'U1', subject: 'a@b.c', body: {} }),
        );
      const settler = createSettler({ records: t.records, logger, now });
      let down = true;
      let calls = 0;
      const intents = createIntents(t.records, now);
      settler.register('assign', async (intent) => {
        calls += 1;
        if (down) throw new Error('licensing API unreachable');
        await t.records.db.transaction().execute((trx) => intents.close(trx, intent.id, 'assigned'));
      });
      expect(await settler.runOnce()).toBe(0);
      down = false;
      expect(await settler.runOnce()).toBe(1);
      expect(calls).toBe(2);
      expect(await settler.runOnce()).toBe(0);
    },
  );
});

describe.each(testDatabases())('the outbox on $dialect', ({ skip, open }) => {
  it.skipIf(skip !== undefined)(
    'delivers committed messages once, in order; a rolled-back one never exists',
    async () => {
      const t = await open();
      cleanups.push(t.close);
      const delivered: unknown[] = [];
      const outbox = createOutbox({
        records: t.records,
        logger,
        now: () => new Date(),
        deliver: async (body) => void delivered.push(body),
      });
      cleanups.push(() => outbox.stop());
      await t.records.db.transaction().execute(async (trx) => {
        await outbox.enqueue(trx, { kind: 'dm', n: 1 }, 'r1:assigned');
        await outbox.enqueue(trx, { kind: 'dm', n: 2 });
      });
      await expect(
        t.records.db.transaction().execute(async (trx) => {
          await outbox.enqueue(trx, { kind: 'dm', n: 3 });
          throw new Error('the state change failed');
        }),
      ).rejects.toThrow('the state change failed');
      // The same key again: ignored.
      await t.records.db.transaction().execute((trx) => outbox.enqueue(trx, { kind: 'dm', n: 4 }, 'r1:assigned'));
      expect(await outbox.flush()).toBe(2);
      expect(await outbox.flush()).toBe(0);
      expect(delivered).toEqual([
        { kind: 'dm', n: 1 },
        { kind: 'dm', n: 2 },
      ]);
    },
  );

  it.skipIf(skip !== undefined)('a failed delivery is tried again later; an undeliverable one is dropped', async () => {
    const t = await open();
    cleanups.push(t.close);
    let clock = Date.parse('2026-11-25T10:00:00Z');
    const now = () => new Date(clock);
    let failing = true;
    const delivered: unknown[] = [];
    const outbox = createOutbox({
      records: t.records,
      logger,
      now,
      deliver: async (body) => {
        if ((body as { gone?: boolean }).gone) throw new Unsendable('channel_not_found');
        if (failing) throw new Error('ratelimited');
        delivered.push(body);
      },
    });
    await t.records.db.transaction().execute(async (trx) => {
      await outbox.enqueue(trx, { n: 1 });
      await outbox.enqueue(trx, { gone: true });
    });
    expect(await outbox.flush()).toBe(0);
    failing = false;
    expect(await outbox.flush()).toBe(0);
    clock += 5_000;
    expect(await outbox.flush()).toBe(1);
    expect(delivered).toEqual([{ n: 1 }]);
    const states = await t.records.db.selectFrom('outbox').select(['state', 'attempts']).orderBy('id').execute();
    expect(states).toEqual([
      { state: 'sent', attempts: 2 },
      { state: 'dropped', attempts: 1 },
    ]);
  });
});
