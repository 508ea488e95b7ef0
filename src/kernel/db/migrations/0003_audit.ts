/**
 * The audit trail: one append-only row a change, the whole entry in `body` and the columns it is searched
 * by.
 *
 * Indexes: newest first (App Home's recent changes) and deletion by age (AUDIT_RETENTION_DAYS); the
 * history of one license, pool or student (student_email is kept lower-case).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table audit (id serial, at text not null, actor text not null, action text not null, outcome text not null,
    pool_id text, license_id text, student_email text, requester text, body text not null)
  index audit_at on audit (at, id)
  index audit_license on audit (license_id, id)
  index audit_pool on audit (pool_id, id)
  index audit_student on audit (student_email, id)
`);
