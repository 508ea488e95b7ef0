/**
 * The weekly digest's claim on SQLite and PostgreSQL (docs/digest.md): of processes that prepared the
 * same week's digest at once, exactly one claims it and enqueues its post (one outbox row, keyed by
 * the week); a later week is claimed again; an earlier one never. And when each week falls due.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Digest } from '../../../src/digest/domain/digest.js';
import {
  DIGEST_NOTICE_KIND,
  type DigestNotice,
  digestClaims,
  dueWeek,
} from '../../../src/digest/services/digest-schedule.js';
import { createOutbox } from '../../../src/kernel/services/outbox.js';
import { testDatabases } from '../../support/records.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const notice = (week: string): DigestNotice => ({
  kind: DIGEST_NOTICE_KIND,
  channel: 'C0DIGEST01',
  week,
  digest: { at: week } as unknown as Digest,
});

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the digest's weekly claim on ${database.dialect}`, () => {
    it('one claim per week however many processes try at once; the outbox holds one post per week', async () => {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      const now = new Date('2026-11-30T09:01:00Z');
      const outbox = createOutbox({ records: opened.records, logger, now: () => now, deliver: async () => undefined });
      const claims = [1, 2, 3, 4].map(() => digestClaims(opened.records, outbox));
      const won = await Promise.all(claims.map((c) => c.claimAndEnqueue('2026-11-30', notice('2026-11-30'), now)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await claims[0]?.lastWeek()).toBe('2026-11-30');
      expect(await claims[1]?.claimAndEnqueue('2026-11-23', notice('2026-11-23'), now)).toBe(false);
      expect(await claims[2]?.claimAndEnqueue('2026-12-07', notice('2026-12-07'), now)).toBe(true);
      const rows = await opened.records.db.selectFrom('outbox').select(['key']).orderBy('id').execute();
      expect(rows.map((r) => r.key)).toEqual(['digest:2026-11-30', 'digest:2026-12-07']);
    });

    it('a post that cannot be enqueued leaves the week unclaimed, so the next tick tries again', async () => {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      const now = new Date('2026-11-30T09:01:00Z');
      const broken = digestClaims(opened.records, {
        enqueue: async () => {
          throw new Error('the outbox cannot be written');
        },
      });
      await expect(broken.claimAndEnqueue('2026-11-30', notice('2026-11-30'), now)).rejects.toThrow('outbox');
      expect(await broken.lastWeek()).toBeUndefined();
      const outbox = createOutbox({ records: opened.records, logger, now: () => now, deliver: async () => undefined });
      expect(await digestClaims(opened.records, outbox).claimAndEnqueue('2026-11-30', notice('2026-11-30'), now)).toBe(
        true,
      );
    });
  });
}

describe('dueWeek', () => {
  const mon9 = { day: 'mon', time: '09:00', timeZone: 'UTC' };
  it('names the week by the local date of its day, due from its time on', () => {
    expect(dueWeek(new Date('2026-11-30T09:00:00Z'), mon9)).toEqual({ week: '2026-11-30', lateMinutes: 0 });
    expect(dueWeek(new Date('2026-12-02T10:00:00Z'), mon9)).toEqual({ week: '2026-11-30', lateMinutes: 2 * 1440 + 60 });
    // Monday 08:59: last Monday's week, a week late.
    expect(dueWeek(new Date('2026-11-30T08:59:00Z'), mon9)).toEqual({ week: '2026-11-23', lateMinutes: 7 * 1440 - 1 });
  });
  it('in the time zone of the setting: Friday 16:30 in Tokyo is 07:30 UTC', () => {
    const fri = { day: 'fri', time: '16:30', timeZone: 'Asia/Tokyo' };
    expect(dueWeek(new Date('2026-11-27T07:30:00Z'), fri).week).toBe('2026-11-27');
    expect(dueWeek(new Date('2026-11-27T07:29:00Z'), fri).week).toBe('2026-11-20');
  });
});
