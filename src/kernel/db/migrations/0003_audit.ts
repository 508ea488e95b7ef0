/**
 * The audit trail: one append-only row a change, the whole entry in `body` and the columns it is searched
 * by.
 */
import { type AnyDb, type Dialect, serialKey, types } from './columns.js';

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const t = types(dialect);
  await db.schema
    .createTable('audit')
    .addColumn('id', t.serial, serialKey(dialect))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text')
    .addColumn('license_id', 'text')
    .addColumn('student_email', 'text')
    .addColumn('requester', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  // Newest first (App Home's recent changes) and deletion by age (AUDIT_RETENTION_DAYS).
  await db.schema.createIndex('audit_at').on('audit').columns(['at', 'id']).execute();
  // The history of one license, pool or student (student_email is kept lower-case).
  await db.schema.createIndex('audit_license').on('audit').columns(['license_id', 'id']).execute();
  await db.schema.createIndex('audit_pool').on('audit').columns(['pool_id', 'id']).execute();
  await db.schema.createIndex('audit_student').on('audit').columns(['student_email', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('audit').execute();
}
