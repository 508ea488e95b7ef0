/**
 * The reclaim rounds' store (src/reclaim/db/store.ts) on SQLite and PostgreSQL, the queries the use
 * cases' tests reach only through whole rounds: one open round per pool (a claim refused rolls its
 * transaction back; closing frees the pool), the deadline's claim running out, an ask's state moved
 * only from the states given, the reminders' window and claim, and the rounds App Home lists.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ReclaimAskRow, ReclaimRoundRow } from '../../../src/kernel/db/schema.js';
import { createReclaimStore } from '../../../src/reclaim/db/store.js';
import { recentRounds } from '../../../src/reclaim/index.js';
import { testDatabases } from '../../support/records.js';

const DAY = 86_400_000;
const T0 = new Date('2026-11-25T10:00:00.000Z').getTime();
const iso = (days: number) => new Date(T0 + days * DAY).toISOString();

const round = (id: string, pool: string, created: number, state = 'open'): ReclaimRoundRow => ({
  id,
  admin: 'U0MGR00001',
  pool_id: pool,
  policy: 'release',
  state,
  created_at: iso(created),
  remind_at: iso(created + 4),
  deadline_at: iso(created + 7),
  not_in_slack: 1,
  message_channel: null,
  message_ts: null,
  claimed_until: null,
  closed_at: state === 'closed' ? iso(created + 7) : null,
});

const ask = (id: string, roundId: string, license: string, user: string, state = 'asked'): ReclaimAskRow => ({
  id,
  round_id: roundId,
  license_id: license,
  pool_id: '2003',
  course_title: 'Course 2003',
  slack_user: user,
  student_email: `${user.toLowerCase()}@contoso.com`,
  student_name: user,
  standing: 'stalled',
  progress: 40,
  since: iso(-40),
  since_watched: 1,
  state,
  answered_at: null,
  reminded_at: null,
  detail: null,
});

class Rollback extends Error {}

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the reclaim store on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return { records: opened.records, store: createReclaimStore(opened.records) };
    }

    it('one open round per pool: a refused claim rolls its round back, and closing frees the pool', async () => {
      const { store } = await open();
      await store.transaction(async (tx) => {
        expect(await tx.claimPools('rr1', ['2003', '2001'])).toBe(true);
        await tx.insertRound(round('rr1', '2003', 0));
      });
      await expect(
        store.transaction(async (tx) => {
          await tx.insertRound(round('rr2', '2001', 0));
          if (!(await tx.claimPools('rr2', ['2002', '2001']))) throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
      expect(await store.round('rr2')).toBeUndefined();
      expect([...(await store.openRounds()).keys()].sort()).toEqual(['2001', '2003']);
      expect((await store.openRounds()).get('2001')).toMatchObject({ roundId: 'rr1', admin: 'U0MGR00001' });

      // The deadline's work is one process's until its claim runs out.
      expect(await store.dueRounds(iso(6))).toEqual([]);
      expect((await store.dueRounds(iso(7))).map((r) => r.id)).toEqual(['rr1']);
      expect(await store.claimRound('rr1', iso(7), iso(7.01))).toBe(true);
      expect(await store.claimRound('rr1', iso(7.005), iso(7.02))).toBe(false);
      expect(await store.claimRound('rr1', iso(7.02), iso(7.03))).toBe(true);

      await store.closeRound('rr1', iso(7.03));
      expect(await store.openRounds()).toEqual(new Map());
      expect(await store.round('rr1')).toMatchObject({ state: 'closed', closed_at: iso(7.03) });
      expect(await store.claimRound('rr1', iso(8), iso(8.01))).toBe(false);
      expect(await store.claimPools('rr3', ['2001'])).toBe(true);
    });

    it('an ask moves only from the states given; kept, asked and released licenses are told apart', async () => {
      const { store } = await open();
      await store.insertRound(round('rr1', '2003', 0));
      await store.insertRound(round('rr0', '2003', -100, 'closed'));
      for (const a of [
        ask('ra1', 'rr1', 'L1', 'U0ANN00001'),
        ask('ra2', 'rr1', 'L2', 'U0BOB00001'),
        ask('ra3', 'rr1', 'L3', 'U0CY000001'),
        ask('ra0', 'rr0', 'L1', 'U0ANN00001', 'kept'),
      ])
        await store.insertAsk(a);
      expect(await store.moveAsk('ra1', { state: 'kept', answered_at: iso(1) }, ['asked'])).toBe(true);
      expect(await store.moveAsk('ra1', { state: 'releasing' }, ['asked'])).toBe(false);
      expect(await store.moveAsk('ra2', { state: 'released', answered_at: iso(2) })).toBe(true);
      expect(await store.moveAsk('ra3', { state: 'failed', detail: 'no' }, ['asked', 'expiring'])).toBe(true);
      expect(await store.ask('ra3')).toMatchObject({ state: 'failed', detail: 'no' });

      expect([...(await store.keptSince(iso(0)))]).toEqual(['L1']);
      expect(await store.keptSince(iso(1.5))).toEqual(new Set());
      expect(await store.releasedLicenses()).toEqual(new Set(['L2']));
      await store.moveAsk('ra3', { state: 'asked' });
      expect(await store.askedInOpenRounds()).toEqual(new Set(['L3']));
      expect((await store.asksOf('rr1', ['asked', 'kept'])).map((a) => a.id)).toEqual(['ra1', 'ra3']);
      expect(await store.asksOf('rr1')).toHaveLength(3);

      // The old round's ask about L1: kept after that round began, so this one's question is closed.
      const old = (await store.ask('ra0')) as ReclaimAskRow;
      expect(await store.supersededBy(old, round('rr0', '2003', -100))).toBe('kept');
      expect(await store.supersededBy(old, round('rr9', '2003', 5))).toBeUndefined();
      await store.transaction(async (tx) => {
        await tx.lockLicense('L1');
        expect(await tx.moveAsk('ra0', { state: 'unanswered' }, ['kept'])).toBe(true);
      });
    });

    it('reminders: due between the reminder day and the deadline, each ask claimed once, one a person a day', async () => {
      const { store } = await open();
      await store.insertRound(round('rr1', '2003', 0));
      await store.insertAsk(ask('ra1', 'rr1', 'L1', 'U0ANN00001'));
      await store.insertAsk(ask('ra2', 'rr1', 'L2', 'U0BOB00001', 'kept'));
      expect(await store.dueReminders(iso(3.9))).toEqual([]);
      expect(await store.dueReminders(iso(7))).toEqual([]);
      const due = await store.dueReminders(iso(4));
      expect(due.map((a) => [a.id, a.deadline_at])).toEqual([['ra1', iso(7)]]);
      expect(await store.remindedSince('U0ANN00001', iso(3))).toBe(false);
      const claims = await Promise.all([store.claimReminder('ra1', iso(4)), store.claimReminder('ra1', iso(4))]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimReminder('ra2', iso(4))).toBe(false);
      expect(await store.remindedSince('U0ANN00001', iso(3))).toBe(true);
      expect(await store.remindedSince('U0ANN00001', iso(4))).toBe(false);
      expect(await store.dueReminders(iso(5))).toEqual([]);
    });

    it('the rounds App Home lists: open or closed within a week, newest first, with their figures', async () => {
      const { records, store } = await open();
      await store.insertRound(round('rr1', '2001', 0, 'closed'));
      await store.insertRound(round('rr2', '2002', 3));
      await store.insertRound(round('rr3', '2003', -30, 'closed'));
      await store.insertAsk(ask('ra1', 'rr1', 'L1', 'U0ANN00001', 'kept'));
      await store.insertAsk(ask('ra2', 'rr1', 'L2', 'U0BOB00001', 'released'));
      await store.insertAsk(ask('ra3', 'rr1', 'L3', 'U0CY000001', 'unanswered'));
      await store.insertAsk(ask('ra4', 'rr2', 'L4', 'U0DEE00001'));
      expect(await store.setMessage('rr2', 'D0MGR00001', '1.0001')).toBe(true);
      expect(await store.setMessage('rr2', 'D0MGR00001', '1.0002')).toBe(false);
      expect((await store.recentRounds(iso(1), 3)).map((r) => r.id)).toEqual(['rr2', 'rr1']);
      expect((await store.recentRounds(iso(8), 3)).map((r) => r.id)).toEqual(['rr2']);
      expect((await store.recentRounds(iso(1), 1)).map((r) => r.id)).toEqual(['rr2']);
      const counts = await store.askCounts(['rr1', 'rr2']);
      expect(counts.find((c) => c.round_id === 'rr1' && c.state === 'kept')?.n).toBe(1);

      expect(await recentRounds(records, new Date(T0 + 8 * DAY))).toEqual([
        {
          id: 'rr2',
          poolId: '2002',
          policy: 'release',
          closed: false,
          deadlineAt: iso(10),
          asked: 1,
          kept: 0,
          released: 0,
          noAnswer: 1,
          failed: 0,
          notInSlack: 1,
        },
        {
          id: 'rr1',
          poolId: '2001',
          policy: 'release',
          closed: true,
          deadlineAt: iso(7),
          asked: 3,
          kept: 1,
          released: 1,
          noAnswer: 1,
          failed: 0,
          notInSlack: 1,
        },
      ]);
    });
  });
}
