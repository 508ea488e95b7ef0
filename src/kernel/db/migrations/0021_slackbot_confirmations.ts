/**
 * The Slackbot tools' confirmations (docs/slackbot.md): one row per preview token that made its change,
 * written when its confirm is accepted. The token itself is signed and carries everything else; the
 * primary key refuses the same token a second time, whichever replica it reaches.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table slackbot_confirmations (token_id text primary key, user_id text not null, tool text not null,
    used_at text not null, expires_at text not null)
  index slackbot_confirmations_expires on slackbot_confirmations (expires_at)
`);
