/**
 * One replica runs a job (docs/records.md, "Job leases"): the row names the holder and until when
 * (ISO, so it compares as text on both databases); taken by a conditional write, renewed, deleted.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('until', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
