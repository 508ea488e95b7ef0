/**
 * Course requests and the waitlist: one row a request, its whole record in `body`, with the columns a list
 * is read by.
 */
import { type AnyDb, type Dialect, types } from './columns.js';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect);
  await db.schema
    .createTable('requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('requester', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('waitlist_rank', t.real)
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('requests_requester').on('requests').columns(['requester', 'created_at']).execute();
  await db.schema.createIndex('requests_status').on('requests').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('requests_waitlist').on('requests').columns(['pool_id', 'waitlist_rank']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('requests').execute();
}
