/**
 * Writes in flight and messages to people: `instances` (the processes that use the database), `intents` (a
 * licensing write recorded before it is sent) and `outbox` (a notice queued in the transaction of the
 * change it tells of).
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table instances (id text primary key, started_at text not null, seen_at text not null)
  table intents (id text primary key, kind text not null, owner text not null, subject text, pool_id text,
    instance text not null, state text not null, created_at text not null, settled_at text, body text not null, outcome text)
  index intents_state on intents (state, created_at)
  index intents_subject on intents (subject)
  table outbox (id serial, key text unique, created_at text not null, due_at text not null, state text not null,
    attempts integer not null default 0, body text not null, sent_at text, result text)
  index outbox_due on outbox (state, due_at)
`);
