/**
 * One open reclaim round per pool (docs/reclaim.md): a round claims each pool it asks in by a row
 * here, inserted in the transaction that writes the round (the primary key refuses a second claim,
 * whichever replica makes it), deleted when the round closes. Rounds still open are claimed here,
 * the oldest first (two open rounds of one pool, from before this table, keep the oldest's claim).
 */
import { type AnyDb, type Dialect, runSchema, undoSchema } from './columns.js';

const SCHEMA = 'table reclaim_open_pools (pool_id text primary key, round_id text not null)';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await runSchema(db, dialect, SCHEMA);
  const open = await db
    .selectFrom('reclaim_asks')
    .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
    .select(['reclaim_asks.pool_id', 'reclaim_rounds.id', 'reclaim_rounds.created_at'])
    .where('reclaim_rounds.state', '=', 'open')
    .orderBy('reclaim_rounds.created_at')
    .orderBy('reclaim_rounds.id')
    .execute();
  for (const row of open as { pool_id: string; id: string }[])
    await db
      .insertInto('reclaim_open_pools')
      .values({ pool_id: row.pool_id, round_id: row.id })
      .onConflict((oc) => oc.column('pool_id').doNothing())
      .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await undoSchema(db, SCHEMA);
}
