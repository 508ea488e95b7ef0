/**
 * Who approves (docs/roles-and-approvals.md): an approver's away delegations (one row each, from the
 * day they start to the day they end, waiting for an owner's yes when the delegate holds no role of
 * their own), each approver's choice of one daily "waiting for you" list, and the lists sent (one row
 * per approver and day: the primary key refuses a second, whichever replica sends it).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table approver_delegations (id text primary key, approver text not null, delegate text not null,
    from_day text not null, until_day text not null, state text not null, created_at text not null,
    decided_by text, ended_at text)
  index approver_delegations_approver on approver_delegations (approver, state)
  index approver_delegations_delegate on approver_delegations (delegate, state)
  table approver_prefs (slack_user text primary key, daily_list integer not null, changed_at text not null)
  table approver_daily_lists (slack_user text not null, day text not null, sent_at text not null,
    primary key approver_daily_lists_pk (slack_user, day))
`);
