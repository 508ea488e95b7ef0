/**
 * Seats offered from the waitlist (docs/leavers-and-offers.md#seats-offered-then-claimed): one row per offer of a freed seat to the request
 * first in line, with its deadline and state. A request holds at most one live offer (`open` or
 * `claiming`): a partial unique index refuses a second, whichever replica makes it.
 */
import { sql } from 'kysely';
import { type AnyDb, type Dialect, runSchema, undoSchema } from './columns.js';

const TABLE = `
  table waitlist_offers (id text primary key, pool_id text not null, request_id text not null,
    requester text not null, course_title text not null, state text not null, created_at text not null,
    deadline_at text not null, closed_at text, license_id text, asked_at text)
`;

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await runSchema(db, dialect, TABLE);
  await sql`create unique index waitlist_offers_live on waitlist_offers (request_id) where state in ('open', 'claiming')`.execute(
    db,
  );
  await runSchema(db, dialect, 'index waitlist_offers_pool on waitlist_offers (pool_id, state)');
}

export async function down(db: AnyDb): Promise<void> {
  await undoSchema(db, TABLE);
}
