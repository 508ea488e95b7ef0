/**
 * The automatic return of finished seats (docs/progress.md): the claim of each return, made
 * before its DELETE; found by state and claim for the read-back after a kill.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('progress_returns')
    .addColumn('license_id', 'text', (c) => c.primaryKey())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('student_name', 'text', (c) => c.notNull())
    .addColumn('completed_on', 'text', (c) => c.notNull())
    .addColumn('pass_started_at', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('claimed_until', 'text', (c) => c.notNull())
    .addColumn('course_title', 'text')
    .addColumn('done_at', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema
    .createIndex('progress_returns_state')
    .on('progress_returns')
    .columns(['state', 'claimed_until'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('progress_returns').execute();
}
