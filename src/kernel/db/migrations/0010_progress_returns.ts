/**
 * The automatic return of finished seats (docs/progress.md): the claim of each return, made
 * before its DELETE; found by state and claim for the read-back after a kill.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table progress_returns (license_id text primary key, pool_id text not null, student_email text not null,
    student_name text not null, completed_on text not null, pass_started_at text not null, state text not null,
    claimed_at text not null, claimed_until text not null, course_title text, done_at text, detail text)
  index progress_returns_state on progress_returns (state, claimed_until)
`);
