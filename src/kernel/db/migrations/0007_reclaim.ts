/**
 * Reclaim rounds ('still learning?'): a round an admin starts and the asks it sends, one a holder.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table reclaim_rounds (id text primary key, admin text not null, pool_id text, policy text not null,
    state text not null, created_at text not null, remind_at text not null, deadline_at text not null,
    not_in_slack integer not null, message_channel text, message_ts text, claimed_until text, closed_at text)
  index reclaim_rounds_state on reclaim_rounds (state, deadline_at)
  table reclaim_asks (id text primary key, round_id text not null, license_id text not null, pool_id text not null,
    course_title text not null, slack_user text not null, student_email text not null, student_name text not null,
    standing text not null, progress real not null, since text not null, since_watched integer not null,
    state text not null, answered_at text, reminded_at text, detail text)
  index reclaim_asks_round on reclaim_asks (round_id)
  index reclaim_asks_license on reclaim_asks (license_id, state)
  index reclaim_asks_user on reclaim_asks (slack_user, reminded_at)
`);
