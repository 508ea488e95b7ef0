/**
 * Extension requests ("Ask for more time"): one row a learner's request for a later end date of a
 * license they hold, its whole record in `body`, with the columns a list is read by.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table extension_requests (id text primary key, requester text not null, license_id text not null,
    status text not null, created_at text not null, updated_at text not null, body text not null)
  index extension_requests_license on extension_requests (license_id, status)
  index extension_requests_status on extension_requests (status, created_at)
  index extension_requests_requester on extension_requests (requester, created_at)
`);
