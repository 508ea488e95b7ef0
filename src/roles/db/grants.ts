/** Every query of roles kept in the database (docs/roles-and-approvals.md): the grants table. */
import type { Records } from '../../kernel/db/open.js';
import type { RoleGrantRow } from '../../kernel/db/schema.js';
import { canonicalPools, type Grant, type GrantScope, scopeKey } from '../domain/grants.js';

export interface GrantStore {
  /** Every grant, oldest first. */
  all(): Promise<Grant[]>;
  /** Adds a grant; false when the same role on the same scope was given already (by any replica). */
  add(grant: Grant): Promise<boolean>;
  /** Deletes a grant; the grant deleted, or undefined when it was gone already. */
  remove(id: string): Promise<Grant | undefined>;
}

function scopeOf(row: RoleGrantRow): GrantScope {
  if (row.scope_kind === 'course')
    return { kind: 'course', courseId: row.scope_ids, ...(row.course_title ? { courseTitle: row.course_title } : {}) };
  if (row.scope_kind === 'pools') return { kind: 'pools', poolIds: row.scope_ids.split(',').filter(Boolean) };
  return { kind: 'all' };
}

function grantOf(row: RoleGrantRow): Grant {
  return {
    id: row.id,
    subject: row.subject,
    role: row.role === 'admin' ? 'admin' : 'viewer',
    scope: scopeOf(row),
    givenBy: row.given_by,
    givenAt: row.given_at,
  };
}

export function createGrantStore(records: Pick<Records, 'db'>): GrantStore {
  const { db } = records;
  return {
    async all() {
      const rows = await db.selectFrom('role_grants').selectAll().orderBy('given_at').orderBy('id').execute();
      return rows.map(grantOf);
    },
    async add(grant) {
      const { scope } = grant;
      const result = await db
        .insertInto('role_grants')
        .values({
          id: grant.id,
          subject: grant.subject,
          role: grant.role,
          scope_kind: scope.kind,
          scope_ids: scope.kind === 'pools' ? canonicalPools(scope.poolIds).join(',') : scopeKey(scope),
          course_title: scope.kind === 'course' ? (scope.courseTitle ?? null) : null,
          given_by: grant.givenBy,
          given_at: grant.givenAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async remove(id) {
      const row = await db.deleteFrom('role_grants').where('id', '=', id).returningAll().executeTakeFirst();
      return row ? grantOf(row) : undefined;
    },
  };
}
