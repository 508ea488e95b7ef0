/**
 * One open reclaim round per pool, held by the database (docs/reclaim.md), on SQLite and PostgreSQL:
 * two admins pressing Start at the same instant, each on a replica of its own (two app instances over
 * one database, one sandbox and one fake Slack), make one round and one DM per holder; the second is
 * told plainly that a round is open, with its deadline, and so is a second click a moment later. A
 * holder's late answer to a closed round says so and records nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReclaimActionId } from '../../src/kernel/blocks/ids.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf } from '../../src/progress/domain/progress.js';
import { encodeReclaimStart } from '../../src/reclaim/blocks/reclaim.js';
import { startReplica, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { dmChannel } from '../support/dms.js';
import { holderInSlack } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { testDatabases } from '../support/records.js';
import { until } from '../support/until.js';

const DAY = 86_400_000;
const POOL = '2003';
const ADMIN_A = TEST_USERS.admin;
const ADMIN_B = TEST_USERS.workspaceAdmin;
const HOLDERS = [
  ['3005', 'U0ONCE0001'],
  ['3003', 'U0ONCE0002'],
  ['3001', 'U0ONCE0003'],
] as const;
const notWorking = (p: { body: Record<string, unknown> }) => !String(p.body.text).includes('Working');

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`one open reclaim round per pool on ${database.dialect}`, () => {
    let db: Awaited<ReturnType<typeof database.open>>;
    let a: TestApp;
    let b: TestApp;
    let clock = new Date('2026-11-25T10:00:00.000Z');
    const t0 = clock.getTime();

    const askDms = (user: string) =>
      a.slack.calls.filter(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === dmChannel(user) &&
          buttons(c.args).some((x) => x.action_id === ReclaimActionId.keep),
      );
    let clicks = 0;
    const start = async (t: TestApp, admin: string) => {
      // A response_url of its own: the two replicas' harnesses share one fake Slack.
      const r = await t.clickButton(ReclaimActionId.startList, encodeReclaimStart(POOL, 'list'), {
        userId: admin,
        responseId: `start-${++clicks}`,
      });
      return allText((await r.waitForResponse(notWorking)).body.blocks);
    };
    const flush = async () => {
      await Promise.all([a.outbox?.flush(), b.outbox?.flush()]);
      await Promise.all([a.settled(), b.settled()]);
    };

    beforeAll(async () => {
      db = await database.open();
      const common = { now: () => clock, admins: [ADMIN_A, ADMIN_B], reclaim: {} };
      a = await startTestApp({ ...common, records: db.records });
      b = await startReplica(a, db.records, common);
      const licenses = (await a.licensing.pools.allLicenses(POOL)).filter((l) => l.active);
      const held: License[] = HOLDERS.map(([student, user]) => {
        const l = licenses.find((x) => x.student.id === student);
        if (!l) throw new Error(`no license for student ${student}`);
        holderInSlack(a.slack, user, l);
        return l;
      });
      // Progress records as the daily pass leaves them: all three stalled for 40 days.
      await createProgressStore(db.records).record(
        held.map((l, i) => ({ ...observationOf(l, [40, 0, 55][i] ?? 0, null), active: true })),
        new Date(t0 - 40 * DAY),
      );
    });

    afterAll(async () => {
      await b?.close();
      await a?.close();
      await db?.close();
    });

    it('two Starts at the same instant, on two replicas: one round, one DM per holder; the other admin is told a round is open, with its deadline', async () => {
      const answers = await Promise.all([start(a, ADMIN_A), start(b, ADMIN_B)]);
      const started = answers.filter((x) => x.includes('Round started'));
      const refused = answers.filter((x) => x.includes('Nothing was started'));
      expect(started).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toContain('already open');
      expect(refused[0]).toMatch(/deadline <!date\^\d+\^\{date_short\} at \{time\}\|Dec 2, 2026/);

      const rounds = await db.records.db.selectFrom('reclaim_rounds').selectAll().execute();
      expect(rounds).toHaveLength(1);
      const asks = await db.records.db.selectFrom('reclaim_asks').select('license_id').execute();
      expect(asks).toHaveLength(HOLDERS.length);
      await until('every holder asked', () => HOLDERS.every(([, user]) => askDms(user).length >= 1));
      await flush();
      for (const [, user] of HOLDERS) expect(askDms(user)).toHaveLength(1);
    });

    it('a second click a moment later asks nobody again and says a round is open until its deadline', async () => {
      clock = new Date(t0 + 1500);
      const again = await start(a, ADMIN_A);
      expect(again).toContain('Nothing was started');
      expect(again).toContain('already open');
      expect(again).toMatch(/started by <@(U0MGR00001|U0WSADMIN1)> .*, deadline <!date/);
      await flush();
      expect(await db.records.db.selectFrom('reclaim_rounds').selectAll().execute()).toHaveLength(1);
      for (const [, user] of HOLDERS) expect(askDms(user)).toHaveLength(1);
    });

    it('a Keep on a closed round says the round closed and records nothing; the pool can have a new round', async () => {
      const [, holder] = HOLDERS[0];
      const askId = String(buttons(askDms(holder)[0]?.args).find((x) => x.action_id === ReclaimActionId.keep)?.value);
      clock = new Date(t0 + 7 * DAY + 60_000);
      await a.reclaim?.tick();
      await flush();
      const auditRows = async () =>
        (await db.records.db.selectFrom('audit').select('action').execute()).filter((r) =>
          r.action.startsWith('reclaim'),
        );
      const before = await auditRows();
      const askBefore = await db.records.db.selectFrom('reclaim_asks').selectAll().where('id', '=', askId).execute();

      const r = await a.clickButton(ReclaimActionId.keep, askId, {
        userId: holder,
        channelId: dmChannel(holder),
        responseId: 'late-keep',
      });
      const said = allText((await r.waitForResponse()).body.blocks);
      expect(said).toMatch(/This question about \*Optimizing DAX\* is closed: its reclaim round ended at its deadline/);
      expect(said).toContain('Your answer was not recorded and nothing changed.');
      await flush();
      expect(await auditRows()).toEqual(before);
      expect(await db.records.db.selectFrom('reclaim_asks').selectAll().where('id', '=', askId).execute()).toEqual(
        askBefore,
      );

      // The round closed, its claim went with it: the next Start makes a round.
      expect(await start(b, ADMIN_B)).toContain('Round started');
      expect(await db.records.db.selectFrom('reclaim_rounds').selectAll().execute()).toHaveLength(2);
    });
  });
}
