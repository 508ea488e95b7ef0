/**
 * Writes in flight and messages to people: `instances` (the processes that use the database), `intents` (a
 * licensing write recorded before it is sent) and `outbox` (a notice queued in the transaction of the
 * change it tells of).
 */
import { type AnyDb, type Dialect, serialKey, types } from './columns.js';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect);
  await db.schema
    .createTable('instances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('pool_id', 'text')
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .execute();
  await db.schema.createIndex('intents_state').on('intents').columns(['state', 'created_at']).execute();
  await db.schema.createIndex('intents_subject').on('intents').columns(['subject']).execute();
  await db.schema
    .createTable('outbox')
    .addColumn('id', t.serial, serialKey(dialect))
    .addColumn('key', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('result', 'text')
    .execute();
  await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'due_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('outbox').execute();
  await db.schema.dropTable('intents').execute();
  await db.schema.dropTable('instances').execute();
}
