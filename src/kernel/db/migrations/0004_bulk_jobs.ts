/**
 * Bulk assign: a job and its rows, the lease that lets one replica run it.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('bulk_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('requester', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_jobs_state').on('bulk_jobs').columns(['state']).execute();
  await db.schema
    .createTable('bulk_rows')
    .addColumn('job_id', 'text', (c) => c.notNull().references('bulk_jobs.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_rows_pk', ['job_id', 'line'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('bulk_rows').execute();
  await db.schema.dropTable('bulk_jobs').execute();
}
