/**
 * Course requests and the waitlist: one row a request, its whole record in `body`, with the columns a list
 * is read by.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  table requests (id text primary key, requester text not null, pool_id text not null, status text not null,
    created_at text not null, waitlist_rank real, updated_at text not null, body text not null)
  index requests_requester on requests (requester, created_at)
  index requests_status on requests (status, created_at)
  index requests_waitlist on requests (pool_id, waitlist_rank)
`);
