/**
 * Seats offered from the waitlist (docs/offers.md): one row per offer of a freed seat to the request
 * first in line, with its deadline and state. A request holds at most one live offer (`open` or
 * `claiming`): a partial unique index refuses a second, whichever replica makes it.
 */
import { sql } from 'kysely';
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('waitlist_offers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('requester', 'text', (c) => c.notNull())
    .addColumn('course_title', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('deadline_at', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'text')
    .addColumn('license_id', 'text')
    .addColumn('asked_at', 'text')
    .execute();
  await sql`create unique index waitlist_offers_live on waitlist_offers (request_id) where state in ('open', 'claiming')`.execute(
    db,
  );
  await db.schema.createIndex('waitlist_offers_pool').on('waitlist_offers').columns(['pool_id', 'state']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('waitlist_offers').execute();
}
