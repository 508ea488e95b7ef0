/**
 * Leavers (docs/leavers-and-offers.md#leavers): a deactivated member's licenses on hold, one row per license, until the
 * grace ends (returned, or only listed in an untransferable pool) or a reactivation cancels it; and the
 * weekly sweep, one row per week it ran (its claim).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table leaver_holds (license_id text primary key, pool_id text not null, student_email text not null,
    slack_user text, course_title text, transferable integer not null, since text not null, due text not null,
    state text not null, claimed_by text, claimed_at text, claimed_until text, ended_at text, detail text)
  index leaver_holds_state on leaver_holds (state, due)
  index leaver_holds_email on leaver_holds (student_email)
  table leaver_sweeps (week text primary key, started_at text not null, finished_at text, looked_up integer,
    found integer)
`);
