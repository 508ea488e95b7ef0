/**
 * Progress records: what each license was last seen at, one history row a change, each pool's seats per day
 * they changed.
 */
import { type AnyDb, type Dialect, serialKey, types } from './columns.js';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect);
  await db.schema
    .createTable('license_progress')
    .addColumn('license_id', 'text', (c) => c.primaryKey())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('course_id', 'text', (c) => c.notNull())
    .addColumn('student_id', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('student_name', 'text', (c) => c.notNull())
    .addColumn('progress', t.real, (c) => c.notNull())
    .addColumn('completed', 'text')
    .addColumn('license_start', 'text', (c) => c.notNull())
    .addColumn('license_end', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('license_progress_pool').on('license_progress').columns(['pool_id', 'active']).execute();
  await db.schema.createIndex('license_progress_email').on('license_progress').columns(['student_email']).execute();
  await db.schema
    .createTable('progress_history')
    .addColumn('id', t.serial, serialKey(dialect))
    .addColumn('license_id', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('progress', t.real, (c) => c.notNull())
    .addColumn('completed', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('progress_history_license')
    .on('progress_history')
    .columns(['license_id', 'at'])
    .execute();
  await db.schema.createIndex('progress_history_at').on('progress_history').columns(['at']).execute();
  await db.schema
    .createTable('pool_usage')
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('licenses', 'integer', (c) => c.notNull())
    .addColumn('assigned', 'integer', (c) => c.notNull())
    .addColumn('available', 'integer', (c) => c.notNull())
    .addColumn('transferable', 'integer', (c) => c.notNull())
    .addColumn('pool_end', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pool_usage_pk', ['pool_id', 'day'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('pool_usage').execute();
  await db.schema.dropTable('progress_history').execute();
  await db.schema.dropTable('license_progress').execute();
}
