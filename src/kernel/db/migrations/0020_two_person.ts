/**
 * Mass changes held for a second admin (docs/roles-and-approvals.md, "A second pair of eyes on mass
 * changes"): one row per held bulk job or reclaim round, with its plan as previewed, its state and
 * who decided. Every decision is a conditional update on `state`, so a change is decided once.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table mass_changes (id text primary key, kind text not null, submitter text not null, pool_ids text not null,
    figures text not null, plan text not null, state text not null, created_at text not null,
    expires_at text not null, decided_by text, decided_at text, started_at text)
  index mass_changes_state on mass_changes (state, expires_at)
`);
