/**
 * Roles kept in the database (docs/roles-and-approvals.md): one row per role an owner gave, to a person
 * (U…/W…) or a user group (S…), admin or viewer, on every pool, the pools of one course, or chosen
 * pools. The same role on the same scope is given once: a unique index refuses a second, whichever
 * replica gives it.
 */
import { sql } from 'kysely';
import { type AnyDb, type Dialect, runSchema, undoSchema } from './columns.js';

const TABLE = `
  table role_grants (id text primary key, subject text not null, role text not null, scope_kind text not null,
    scope_ids text not null, course_title text, given_by text not null, given_at text not null)
`;

export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await runSchema(db, dialect, TABLE);
  await sql`create unique index role_grants_same on role_grants (subject, role, scope_kind, scope_ids)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await undoSchema(db, TABLE);
}
