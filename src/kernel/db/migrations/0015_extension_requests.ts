/**
 * Extension requests ("Ask for more time"): one row a learner's request for a later end date of a
 * license they hold, its whole record in `body`, with the columns a list is read by.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('extension_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('requester', 'text', (c) => c.notNull())
    .addColumn('license_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('extension_requests_license')
    .on('extension_requests')
    .columns(['license_id', 'status'])
    .execute();
  await db.schema
    .createIndex('extension_requests_status')
    .on('extension_requests')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('extension_requests_requester')
    .on('extension_requests')
    .columns(['requester', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('extension_requests').execute();
}
