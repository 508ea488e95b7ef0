/**
 * What every query of the requests store shares: the database (or the caller's transaction, when the
 * store is `within` one), the clock, the reading of rows, a transaction of its own unless it runs in
 * the caller's, the row read locked for a change, and a changed request written back with its rank.
 */
import type { Kysely } from 'kysely';
import type { Database, RequestRow } from '../../kernel/db/schema.js';
import type { CourseRequest } from '../domain/requests.js';
import { columnsOf, type DbRequestStoreOptions, parseMany, parseOne } from './rows.js';

export interface StoreBase {
  opts: DbRequestStoreOptions;
  /** The database, or the transaction this store is bound to. */
  db: Kysely<Database>;
  bound: Kysely<Database> | undefined;
  stamp(): string;
  parse(row: Pick<RequestRow, 'id' | 'body'>): CourseRequest;
  parseAll(rows: readonly Pick<RequestRow, 'id' | 'body'>[]): CourseRequest[];
  /** Runs `fn` in one transaction: the bound one, or a new one. */
  inTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** The row, locked for this transaction on PostgreSQL (SQLite has one writer already). */
  readLocked(trx: Kysely<Database>, id: string): Promise<RequestRow | undefined>;
  /**
   * Writes the changed request. `rank`: its new place in line; undefined keeps the one it has while it
   * waits (or is being assigned from its line) and drops it otherwise.
   */
  write(trx: Kysely<Database>, r: CourseRequest, rank?: number | null): Promise<void>;
}

export function storeBase(opts: DbRequestStoreOptions, bound?: Kysely<Database>): StoreBase {
  const stamp = () => opts.now().toISOString();
  return {
    opts,
    db: bound ?? opts.db,
    bound,
    stamp,
    parse: (row) => parseOne(row, opts),
    parseAll: (rows) => parseMany(rows, opts),
    inTransaction: (fn) => (bound ? fn(bound) : opts.db.transaction().execute((trx) => fn(trx))),
    readLocked(trx, id) {
      let q = trx.selectFrom('requests').selectAll().where('id', '=', id);
      if (opts.dialect === 'postgres') q = q.forUpdate();
      return q.executeTakeFirst();
    },
    async write(trx, r, given) {
      const keeps = r.status === 'waitlisted' || r.status === 'assigning';
      const rank = given !== undefined ? given : keeps ? undefined : null;
      await trx
        .updateTable('requests')
        .set({ ...columnsOf(r, stamp()), ...(rank !== undefined ? { waitlist_rank: rank } : {}) })
        .where('id', '=', r.id)
        .execute();
    },
  };
}
