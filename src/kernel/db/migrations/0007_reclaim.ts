/**
 * Reclaim rounds ('still learning?'): a round an admin starts and the asks it sends, one a holder.
 */
import { type AnyDb, type Dialect, types } from './columns.js';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect);
  await db.schema
    .createTable('reclaim_rounds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('admin', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text')
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('remind_at', 'text', (c) => c.notNull())
    .addColumn('deadline_at', 'text', (c) => c.notNull())
    .addColumn('not_in_slack', 'integer', (c) => c.notNull())
    .addColumn('message_channel', 'text')
    .addColumn('message_ts', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('closed_at', 'text')
    .execute();
  await db.schema.createIndex('reclaim_rounds_state').on('reclaim_rounds').columns(['state', 'deadline_at']).execute();
  await db.schema
    .createTable('reclaim_asks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('round_id', 'text', (c) => c.notNull())
    .addColumn('license_id', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('course_title', 'text', (c) => c.notNull())
    .addColumn('slack_user', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('student_name', 'text', (c) => c.notNull())
    .addColumn('standing', 'text', (c) => c.notNull())
    .addColumn('progress', t.real, (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('since_watched', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('answered_at', 'text')
    .addColumn('reminded_at', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('reclaim_asks_round').on('reclaim_asks').columns(['round_id']).execute();
  await db.schema.createIndex('reclaim_asks_license').on('reclaim_asks').columns(['license_id', 'state']).execute();
  await db.schema.createIndex('reclaim_asks_user').on('reclaim_asks').columns(['slack_user', 'reminded_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('reclaim_asks').execute();
  await db.schema.dropTable('reclaim_rounds').execute();
}
