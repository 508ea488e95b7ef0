/**
 * Progress records: what each license was last seen at, one history row a change, each pool's seats per day
 * they changed.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table license_progress (license_id text primary key, pool_id text not null, course_id text not null,
    student_id text not null, student_email text not null, student_name text not null, progress real not null,
    completed text, license_start text not null, license_end text not null, active integer not null,
    first_seen_at text not null, changed_at text not null, seen_at text not null)
  index license_progress_pool on license_progress (pool_id, active)
  index license_progress_email on license_progress (student_email)
  table progress_history (id serial, license_id text not null, pool_id text not null, student_email text not null,
    progress real not null, completed text, at text not null)
  index progress_history_license on progress_history (license_id, at)
  index progress_history_at on progress_history (at)
  table pool_usage (pool_id text not null, day text not null, licenses integer not null, assigned integer not null,
    available integer not null, transferable integer not null, pool_end text not null,
    primary key pool_usage_pk (pool_id, day))
`);
