/**
 * The learner's own desk (docs/learners.md): the reminders sent before a license ends, one row per
 * license and end date (the primary key refuses a second, whichever replica sends it), and who asked
 * for no more of them.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table learner_reminders (license_id text not null, end_day text not null, slack_user text not null,
    sent_at text not null, primary key learner_reminders_pk (license_id, end_day))
  index learner_reminders_user on learner_reminders (slack_user, sent_at)
  table learner_prefs (slack_user text primary key, reminders_off integer not null, changed_at text not null)
`);
