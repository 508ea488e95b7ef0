/**
 * Course requests in the database (docs/records.md, "Course requests and the waitlist"): one row per
 * request, the whole request as JSON in `body`, its status, requester and pool beside it for the
 * queries (request-queries.ts); the waitlist is the waitlisted requests in rank order (line-queries.ts).
 * Every query the feature runs is here.
 *
 * Every change is read, changed and written in one transaction, the row locked on PostgreSQL
 * (`forUpdate`) and SQLite being a single writer, so two processes never both take one decision.
 * `within(trx)` gives the same store inside a caller's transaction (the request's change, its intent
 * and its messages are committed together).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import { storeBase } from './base.js';
import { type LineQueries, lineQueries } from './line-queries.js';
import { type RequestQueries, requestQueries } from './request-queries.js';
import type { DbRequestStoreOptions } from './rows.js';

export type { WaitlistStore } from './line-queries.js';
export type { DbRequestStoreOptions, StoreLogger } from './rows.js';
export { unreadableRequests } from './rows.js';

export interface DbRequestStore extends RequestQueries, LineQueries {
  /** The same store writing inside `trx` (a transaction the caller commits). */
  within(trx: Kysely<Database>): DbRequestStore;
  /** Runs `fn` in one transaction (or in the caller's, when this store is `within` one). */
  transaction<T>(fn: (trx: Kysely<Database>, store: DbRequestStore) => Promise<T>): Promise<T>;
  /** As `transaction`, committed to disk before it returns (it records a licensing write's intent: Records.durably). */
  durableTransaction<T>(fn: (trx: Kysely<Database>, store: DbRequestStore) => Promise<T>): Promise<T>;
}

export function createDbRequestStore(opts: DbRequestStoreOptions, bound?: Kysely<Database>): DbRequestStore {
  const b = storeBase(opts, bound);
  const run: DbRequestStore['transaction'] = (fn) => b.inTransaction((trx) => fn(trx, createDbRequestStore(opts, trx)));
  return {
    within: (trx) => createDbRequestStore(opts, trx),
    transaction: run,
    durableTransaction: (fn) => (bound || !opts.durably ? run(fn) : opts.durably(() => run(fn))),
    ...requestQueries(b),
    ...lineQueries(b),
  };
}
