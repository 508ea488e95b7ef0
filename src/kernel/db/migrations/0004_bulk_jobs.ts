/**
 * Bulk assign: a job and its rows, the lease that lets one replica run it.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table bulk_jobs (id text primary key, state text not null, requester text not null, pool_id text not null,
    created_at text not null, finished_at text, lease_owner text, lease_until text, body text not null)
  index bulk_jobs_state on bulk_jobs (state)
  table bulk_rows (job_id text not null references bulk_jobs.id on delete cascade, line integer not null,
    state text not null, body text not null, primary key bulk_rows_pk (job_id, line))
`);
