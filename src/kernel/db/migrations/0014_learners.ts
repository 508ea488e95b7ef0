/**
 * The learner's own desk (docs/learners.md): the reminders sent before a license ends, one row per
 * license and end date (the primary key refuses a second, whichever replica sends it), and who asked
 * for no more of them.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('learner_reminders')
    .addColumn('license_id', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('slack_user', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('learner_reminders_pk', ['license_id', 'end_day'])
    .execute();
  await db.schema
    .createIndex('learner_reminders_user')
    .on('learner_reminders')
    .columns(['slack_user', 'sent_at'])
    .execute();
  await db.schema
    .createTable('learner_prefs')
    .addColumn('slack_user', 'text', (c) => c.primaryKey())
    .addColumn('reminders_off', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('learner_prefs').execute();
  await db.schema.dropTable('learner_reminders').execute();
}
