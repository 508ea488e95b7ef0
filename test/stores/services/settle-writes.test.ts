/**
 * The admin's writes left in flight by a process that is gone, settled by the next one: each kind's
 * handler against the sandbox, on SQLite and PostgreSQL. A "dead" process records the intent (its
 * Records closed afterwards, as a killed process leaves it); the world is changed (or not) in the
 * sandbox the way the write would have; a second Records on the same database runs the settler. It
 * reads back, never resends, audits the true outcome, closes the intent and tells the admin once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import { revoke } from '../../../src/changes/services/revoke.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { License } from '../../../src/kernel/domain/types.js';
import type { SettledWriteNotice } from '../../../src/kernel/domain/writes/settled-notice.js';
import { createLicensingClient } from '../../../src/kernel/licensing/index.js';
import type { LicensingClient, Logger } from '../../../src/kernel/licensing/types.js';
import { type AuditLog, createAuditLog } from '../../../src/kernel/services/audit.js';
import { createOutbox } from '../../../src/kernel/services/outbox.js';
import { createIntents, createSettler, type Settler } from '../../../src/kernel/services/writes/intents.js';
import { createWriteLedger, type WriteKind } from '../../../src/kernel/services/writes/ledger.js';
import { registerWriteSettlers } from '../../../src/kernel/services/writes/settle.js';
import { testDatabases } from '../../support/records.js';
import { callSandbox } from '../../support/sandbox.js';
import { until } from '../../support/until.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet } as unknown as Logger;
const ADMIN = 'U0ADMIN001';
const now = () => new Date();

for (const database of testDatabases()) {
  describe.skipIf(database.skip)(`settling the admin's writes after a kill (${database.dialect})`, () => {
    let sandbox: RunningSandbox;
    let licensing: LicensingClient;
    let opened: Awaited<ReturnType<typeof database.open>>;
    let dead: Records;
    let live: Records;
    let audit: AuditLog;
    let settler: Settler;
    let sent: SettledWriteNotice[];
    let outbox: ReturnType<typeof createOutbox>;

    beforeEach(async () => {
      sandbox = await startSandbox({ port: 0, rateLimit: false });
      licensing = createLicensingClient({
        baseUrl: sandbox.url,
        token: sandbox.adminToken,
        retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
      });
      opened = await database.open();
      dead = opened.records;
      live = await openRecords({
        dataDir: opened.dataDir,
        ...(opened.databaseUrl ? { databaseUrl: opened.databaseUrl } : {}),
        heartbeatMs: 0,
      });
      audit = createAuditLog({ logger: quiet });
      sent = [];
      outbox = createOutbox({
        records: live,
        logger: quiet,
        now,
        deliver: async (body) => void sent.push(body as SettledWriteNotice),
      });
      settler = createSettler({ records: live, logger: quiet, now });
      registerWriteSettlers(settler, {
        licensing,
        audit,
        records: live,
        intents: createIntents(live, now),
        outbox,
        now,
      });
    });

    afterEach(async () => {
      await settler.stop();
      await outbox.stop();
      await live.close();
      await opened.close();
      await licensing.close();
      await sandbox.close();
    });

    /** What the killed process recorded before it sent the write; then it is gone. */
    async function leftInFlight(kind: WriteKind, subject: string, poolId: string, body: unknown): Promise<string> {
      const id = await createWriteLedger(dead, createIntents(dead, now)).open({
        kind,
        owner: ADMIN,
        subject,
        poolId,
        body,
      });
      await dead.close();
      return id;
    }

    async function settleRound(): Promise<number> {
      const settled = await settler.runOnce();
      await outbox.flush();
      return settled;
    }

    const intentRow = (id: string) => live.db.selectFrom('intents').selectAll().where('id', '=', id).executeTakeFirst();
    const activeIn = (poolId: string): License => {
      const found = sandbox.inspect.licenses({ poolId })[0];
      if (!found) throw new Error(`no active license in ${poolId}`);
      return found;
    };
    const writes = () => sandbox.requests.filter((r) => r.method !== 'GET');

    it('revoke applied before the kill: audited done, told once, intent closed, nothing resent', async () => {
      const license = activeIn('2001');
      const id = await leftInFlight('revoke', license.id, license.poolId, { license });
      expect((await callSandbox(sandbox, 'DELETE', `/v1/license/${license.id}`)).status).toBe(200);
      sandbox.clearRequests();

      expect(await settleRound()).toBe(1);

      expect(writes()).toEqual([]);
      expect(await audit.recent(5)).toEqual([
        expect.objectContaining({
          actor: ADMIN,
          action: 'revoke',
          outcome: 'done',
          licenseId: license.id,
          detail: expect.stringContaining('settled after a restart'),
        }),
      ]);
      expect(sent).toEqual([
        expect.objectContaining({
          kind: 'settled-write',
          to: ADMIN,
          write: 'revoke',
          result: 'done',
          licenseId: license.id,
        }),
      ]);
      expect(await intentRow(id)).toMatchObject({ state: 'closed' });
      expect(JSON.parse((await intentRow(id))?.outcome ?? 'null')).toMatchObject({ outcome: 'done' });

      // A second round finds nothing: one entry, one message.
      expect(await settleRound()).toBe(0);
      expect(await audit.recent(5)).toHaveLength(1);
      expect(sent).toHaveLength(1);
    });

    it('revoke that never reached the service: audited failed, told "not done", the license still active', async () => {
      const license = activeIn('2001');
      await leftInFlight('revoke', license.id, license.poolId, { license });
      expect(await settleRound()).toBe(1);
      expect(writes()).toEqual([]);
      expect(sandbox.inspect.license(license.id)?.active).toBe(true);
      expect((await audit.recent(1))[0]).toMatchObject({ action: 'revoke', outcome: 'failed' });
      expect(sent).toEqual([expect.objectContaining({ write: 'revoke', result: 'not-done' })]);
    });

    it('end date: done when the license ends on the day asked for, not done otherwise', async () => {
      const [a, b] = sandbox.inspect.licenses({ poolId: '2001' }).filter((l) => l.editable);
      if (!a || !b) throw new Error('two editable licenses expected in pool 2001');
      const pool = sandbox.inspect.pool('2001');
      const day = new Date(Math.min(Date.parse(pool?.end ?? ''), Date.now() + 30 * 86_400_000))
        .toISOString()
        .slice(0, 10);
      const body = (l: License) => ({ licenseId: l.id, endDate: day, past: false, license: l });
      const first = await createWriteLedger(dead, createIntents(dead, now)).open({
        kind: 'end-date',
        owner: ADMIN,
        subject: a.id,
        poolId: '2001',
        body: body(a),
      });
      await leftInFlight('end-date', b.id, '2001', body(b));
      expect((await callSandbox(sandbox, 'PATCH', `/v1/license/${a.id}`, { body: { endDate: day } })).status).toBe(200);
      sandbox.clearRequests();

      expect(await settleRound()).toBe(2);

      expect(writes()).toEqual([]);
      const entries = await audit.recent(5);
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'extend', outcome: 'done', licenseId: a.id, endDate: day }),
      );
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'extend', outcome: 'failed', licenseId: b.id, endDate: day }),
      );
      expect(sent).toHaveLength(2);
      expect(sent).toContainEqual(expect.objectContaining({ write: 'end-date', result: 'done', licenseId: a.id }));
      expect(sent).toContainEqual(expect.objectContaining({ write: 'end-date', result: 'not-done', licenseId: b.id }));
      expect(await intentRow(first)).toMatchObject({ state: 'closed' });
    });

    it('assign: done when the student holds a license of the pool (named in the message), not done otherwise', async () => {
      const params = (email: string) => ({ action: 'assign', params: { poolId: '2001', email, name: 'Ada Lovelace' } });
      const landed = 'ada.settle@contoso.com';
      const lost = 'bob.settle@contoso.com';
      const intents = createIntents(dead, now);
      await createWriteLedger(dead, intents).open({
        kind: 'assign',
        owner: ADMIN,
        subject: landed,
        poolId: '2001',
        body: params(landed),
      });
      await leftInFlight('assign', lost, '2001', params(lost));
      const posted = await callSandbox(sandbox, 'POST', '/v1/pool/2001/license', {
        body: { email: landed, name: 'Ada Lovelace' },
      });
      expect(posted.status).toBe(200);
      sandbox.clearRequests();

      expect(await settleRound()).toBe(2);

      expect(writes()).toEqual([]);
      const licenseId = sandbox.inspect.student({ email: landed })?.courses.find((c) => c.poolId === '2001')?.licenseId;
      expect(licenseId).toBeDefined();
      const entries = await audit.recent(5);
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'assign', outcome: 'done', studentEmail: landed, licenseId }),
      );
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'assign', outcome: 'failed', studentEmail: lost }),
      );
      expect(sent).toContainEqual(
        expect.objectContaining({
          write: 'assign',
          result: 'done',
          assignedLicenseId: licenseId,
          newcomer: 'Ada Lovelace',
        }),
      );
      expect(sent).toContainEqual(expect.objectContaining({ write: 'assign', result: 'not-done' }));
    });

    it('recycle: which steps took effect (revoke only: the seat is free; both: done), each step audited', async () => {
      const [x, y] = sandbox.inspect.licenses({ poolId: '2001' });
      if (!x || !y) throw new Error('two active licenses expected in pool 2001');
      const halfway = 'cy.settle@contoso.com';
      const whole = 'di.settle@contoso.com';
      const body = (old: License, email: string) => ({ revoke: old, params: { poolId: '2001', email } });
      await createWriteLedger(dead, createIntents(dead, now)).open({
        kind: 'recycle',
        owner: ADMIN,
        subject: halfway,
        poolId: '2001',
        body: body(x, halfway),
      });
      await leftInFlight('recycle', whole, '2001', body(y, whole));
      await callSandbox(sandbox, 'DELETE', `/v1/license/${x.id}`);
      await callSandbox(sandbox, 'DELETE', `/v1/license/${y.id}`);
      await callSandbox(sandbox, 'POST', '/v1/pool/2001/license', { body: { email: whole } });
      sandbox.clearRequests();

      expect(await settleRound()).toBe(2);

      expect(writes()).toEqual([]);
      const entries = await audit.recent(10);
      expect(
        entries
          .filter((e) => e.action === 'revoke' && e.outcome === 'done')
          .map((e) => e.licenseId)
          .sort(),
      ).toEqual([x.id, y.id].sort());
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'recycle', outcome: 'done', studentEmail: whole }),
      );
      expect(entries).toContainEqual(
        expect.objectContaining({ action: 'recycle', outcome: 'failed', studentEmail: halfway }),
      );
      expect(sent).toContainEqual(expect.objectContaining({ write: 'recycle', result: 'freed-only', licenseId: x.id }));
      expect(sent).toContainEqual(expect.objectContaining({ write: 'recycle', result: 'done', licenseId: y.id }));
    });

    it('a write that finishes closes its intent with the outcome, after its audit entry; nothing is left to settle', async () => {
      const license = activeIn('2001');
      const ctx = { licensing, audit, now, writes: createWriteLedger(live, createIntents(live, now)) };
      const outcome = await revoke(ctx, { actor: ADMIN, licenseId: license.id });
      expect(outcome).toMatchObject({ kind: 'written', write: { kind: 'done' } });
      const rows = await live.db.selectFrom('intents').selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'revoke', owner: ADMIN, subject: license.id, state: 'closed' }),
      ]);
      expect(JSON.parse(rows[0]?.outcome ?? 'null')).toMatchObject({ outcome: 'done' });
      expect(JSON.parse(rows[0]?.body ?? 'null')).toMatchObject({ license: { id: license.id } });
      expect(await settleRound()).toBe(0);
      expect(sent).toEqual([]);
    });

    it('the licensing service down: the intent stays open, nothing audited or told; the next round settles it', async () => {
      const license = activeIn('2001');
      const id = await leftInFlight('revoke', license.id, license.poolId, { license });
      sandbox.addFault({ kind: '500', method: 'GET' });

      expect(await settleRound()).toBe(0);
      expect(await intentRow(id)).toMatchObject({ state: 'open' });
      expect(await audit.recent(5)).toEqual([]);
      expect(sent).toEqual([]);

      sandbox.clearFaults();
      expect(await settleRound()).toBe(1);
      expect(await intentRow(id)).toMatchObject({ state: 'closed' });
      expect(sent).toEqual([expect.objectContaining({ write: 'revoke', result: 'not-done' })]);
    });

    it('a revoke cut off by a stop (answer never came) keeps its intent open, and the next process settles it', async () => {
      const license = activeIn('2001');
      sandbox.addFault({ kind: 'hang', method: 'DELETE', phase: 'after' });
      // The stopping process's own client, cut off by its stop.
      const stopping = createLicensingClient({ baseUrl: sandbox.url, token: sandbox.adminToken });
      const ctx = { licensing: stopping, audit, now, writes: createWriteLedger(dead, createIntents(dead, now)) };
      const pending = revoke(ctx, { actor: ADMIN, licenseId: license.id });
      await until('the DELETE to be applied', () => sandbox.inspect.license(license.id)?.active === false);
      await stopping.close({ abort: true });
      const outcome = await pending;
      expect(outcome).toMatchObject({ kind: 'written', write: { kind: 'unknown', stopped: true } });
      const open = await dead.db.selectFrom('intents').selectAll().where('state', '=', 'open').execute();
      expect(open).toHaveLength(1);
      await dead.close();
      sandbox.clearFaults();

      expect(await settleRound()).toBe(1);
      // Newest first: the stop's "unknown", then the truth read back by the next process.
      const entries = await audit.recent(5);
      expect(entries.map((e) => e.outcome)).toEqual(['done', 'unknown']);
      expect(sent).toEqual([expect.objectContaining({ write: 'revoke', result: 'done' })]);
      expect(sandbox.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    });
  });
}
