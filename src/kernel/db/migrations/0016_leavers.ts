/**
 * Leavers (docs/leavers.md): a deactivated member's licenses on hold, one row per license, until the
 * grace ends (returned, or only listed in an untransferable pool) or a reactivation cancels it; and the
 * weekly sweep, one row per week it ran (its claim).
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('leaver_holds')
    .addColumn('license_id', 'text', (c) => c.primaryKey())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('student_email', 'text', (c) => c.notNull())
    .addColumn('slack_user', 'text')
    .addColumn('course_title', 'text')
    .addColumn('transferable', 'integer', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('due', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('leaver_holds_state').on('leaver_holds').columns(['state', 'due']).execute();
  await db.schema.createIndex('leaver_holds_email').on('leaver_holds').columns(['student_email']).execute();
  await db.schema
    .createTable('leaver_sweeps')
    .addColumn('week', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('looked_up', 'integer')
    .addColumn('found', 'integer')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('leaver_sweeps').execute();
  await db.schema.dropTable('leaver_holds').execute();
}
