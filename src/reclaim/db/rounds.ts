/**
 * The rounds' rows (docs/reclaim.md): `reclaim_rounds`, and `reclaim_open_pools`, whose primary key
 * holds one open round per pool whichever replica starts one.
 */
import type { Kysely } from 'kysely';
import type { Database, ReclaimRoundRow } from '../../kernel/db/schema.js';
import type { ReclaimOpenRound } from '../domain/reclaim.js';

export interface RoundRecords {
  /** The rounds open, by pool (one at most each). */
  openRounds(): Promise<Map<string, ReclaimOpenRound>>;
  round(roundId: string): Promise<ReclaimRoundRow | undefined>;
  /** Claims each pool for the round; false at the first pool another round holds (nothing else tried). */
  claimPools(roundId: string, pools: readonly string[]): Promise<boolean>;
  insertRound(row: ReclaimRoundRow): Promise<void>;
  /** Open rounds whose deadline is at or before `iso`. */
  dueRounds(iso: string): Promise<ReclaimRoundRow[]>;
  /**
   * Takes an open round's deadline work until `until`, unless another process holds it and its claim
   * has not run out at `iso`. Whether this call took it.
   */
  claimRound(roundId: string, iso: string, until: string): Promise<boolean>;
  /** Closes a round and frees its pools. */
  closeRound(roundId: string, at: string): Promise<void>;
  /** Records where the round message was posted; false when a post was recorded before (that one stays). */
  setMessage(roundId: string, channel: string, ts: string): Promise<boolean>;
  /** Rounds open, or closed since `since`, newest first, at most `limit`. */
  recentRounds(since: string, limit: number): Promise<ReclaimRoundRow[]>;
}

export function roundRecords(db: Kysely<Database>): RoundRecords {
  return {
    async openRounds() {
      const rows = await db
        .selectFrom('reclaim_open_pools')
        .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_open_pools.round_id')
        .select(['reclaim_open_pools.pool_id', 'reclaim_rounds.id', 'reclaim_rounds.admin'])
        .select(['reclaim_rounds.created_at', 'reclaim_rounds.deadline_at'])
        .where('reclaim_rounds.state', '=', 'open')
        .execute();
      return new Map(
        rows.map((r) => [
          r.pool_id,
          { poolId: r.pool_id, roundId: r.id, admin: r.admin, startedAt: r.created_at, deadlineAt: r.deadline_at },
        ]),
      );
    },

    round: (roundId) => db.selectFrom('reclaim_rounds').selectAll().where('id', '=', roundId).executeTakeFirst(),

    async claimPools(roundId, pools) {
      for (const pool of pools) {
        const claimed = await db
          .insertInto('reclaim_open_pools')
          .values({ pool_id: pool, round_id: roundId })
          .onConflict((oc) => oc.column('pool_id').doNothing())
          .returning('pool_id')
          .execute();
        if (claimed.length !== 1) return false;
      }
      return true;
    },

    async insertRound(row) {
      await db.insertInto('reclaim_rounds').values(row).execute();
    },

    dueRounds: (iso) =>
      db.selectFrom('reclaim_rounds').selectAll().where('state', '=', 'open').where('deadline_at', '<=', iso).execute(),

    async claimRound(roundId, iso, until) {
      const claim = await db
        .updateTable('reclaim_rounds')
        .set({ claimed_until: until })
        .where('id', '=', roundId)
        .where('state', '=', 'open')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', iso)]))
        .executeTakeFirst();
      return Number(claim.numUpdatedRows) === 1;
    },

    async closeRound(roundId, at) {
      await db
        .updateTable('reclaim_rounds')
        .set({ state: 'closed', closed_at: at })
        .where('id', '=', roundId)
        .execute();
      await db.deleteFrom('reclaim_open_pools').where('round_id', '=', roundId).execute();
    },

    async setMessage(roundId, channel, ts) {
      const r = await db
        .updateTable('reclaim_rounds')
        .set({ message_channel: channel, message_ts: ts })
        .where('id', '=', roundId)
        .where('message_ts', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    recentRounds: (since, limit) =>
      db
        .selectFrom('reclaim_rounds')
        .selectAll()
        .where((eb) => eb.or([eb('state', '=', 'open'), eb('closed_at', '>=', since)]))
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute(),
  };
}
