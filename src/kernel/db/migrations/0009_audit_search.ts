/**
 * `/licenses history @user`: the entries a person made (actor) or that are about their course
 * request (requester), newest first. The license, pool and student e-mail have theirs (0003_audit).
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('audit_actor').on('audit').columns(['actor', 'id']).execute();
  await db.schema.createIndex('audit_requester').on('audit').columns(['requester', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('audit_requester').execute();
  await db.schema.dropIndex('audit_actor').execute();
}
