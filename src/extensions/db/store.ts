/**
 * Extension requests in the database: one row a request, the whole request as JSON in `body`, its
 * status, learner and license beside it. Every change is a compare-and-set from the statuses given,
 * read and written in one transaction (the row locked on PostgreSQL; SQLite has one writer), so two
 * approvers never both decide. `transaction` gives the store inside a transaction the caller's intent
 * and outbox rows share.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import { type ExtensionRequest, type ExtensionStatus, readStoredExtension } from '../domain/extensions.js';

export interface ExtensionStoreOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  now: () => Date;
  /** Records.durably: what `durableTransaction` commits through. */
  durably?: <T>(fn: () => Promise<T>) => Promise<T>;
}

export type ExtensionSwap =
  | { changed: true; request: ExtensionRequest }
  | { changed: false; request: ExtensionRequest | undefined };

export interface ExtensionStore {
  get(id: string): Promise<ExtensionRequest | undefined>;
  byLicense(licenseId: string): Promise<ExtensionRequest[]>;
  byRequester(userId: string): Promise<ExtensionRequest[]>;
  byStatus(status: ExtensionStatus): Promise<ExtensionRequest[]>;
  insert(r: ExtensionRequest): Promise<void>;
  /** Changes the request only while its status is one of `from`; what it is now otherwise. */
  swap(
    id: string,
    from: readonly ExtensionStatus[],
    change: (r: ExtensionRequest) => ExtensionRequest | Promise<ExtensionRequest>,
  ): Promise<ExtensionSwap>;
  /**
   * In a transaction: the license's asks locked until it commits (PostgreSQL: an advisory lock on its
   * id; SQLite has one writer), so two asks at once cannot both find none open.
   */
  lockLicense(licenseId: string): Promise<void>;
  /** Replaces its card copies (the notice that posted them). */
  setCards(id: string, cards: ExtensionRequest['cards']): Promise<void>;
  transaction<T>(fn: (trx: Kysely<Database>, store: ExtensionStore) => Promise<T>): Promise<T>;
  /** As `transaction`, on disk before it returns (it records a licensing write's intent). */
  durableTransaction<T>(fn: (trx: Kysely<Database>, store: ExtensionStore) => Promise<T>): Promise<T>;
}

const parseAll = (rows: readonly { body: string }[]) =>
  rows.map((r) => readStoredExtension(r.body)).filter((r): r is ExtensionRequest => r !== undefined);

export function createExtensionStore(opts: ExtensionStoreOptions, bound?: Kysely<Database>): ExtensionStore {
  const db = bound ?? opts.db;
  const stamp = () => opts.now().toISOString();
  const inTransaction = <T>(fn: (trx: Kysely<Database>) => Promise<T>) =>
    bound ? fn(bound) : opts.db.transaction().execute(fn);
  const listed = (column: 'license_id' | 'requester' | 'status', value: string) =>
    db
      .selectFrom('extension_requests')
      .select(['body'])
      .where(column, '=', value)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
      .then(parseAll);
  const write = (trx: Kysely<Database>, r: ExtensionRequest) =>
    trx
      .updateTable('extension_requests')
      .set({ status: r.status, updated_at: stamp(), body: JSON.stringify(r) })
      .where('id', '=', r.id)
      .execute();
  const run: ExtensionStore['transaction'] = (fn) => inTransaction((trx) => fn(trx, createExtensionStore(opts, trx)));

  return {
    async get(id) {
      const row = await db.selectFrom('extension_requests').select(['body']).where('id', '=', id).executeTakeFirst();
      return row ? readStoredExtension(row.body) : undefined;
    },
    byLicense: (licenseId) => listed('license_id', licenseId),
    byRequester: (userId) => listed('requester', userId),
    byStatus: (status) => listed('status', status),
    async insert(r) {
      await db
        .insertInto('extension_requests')
        .values({
          id: r.id,
          requester: r.requester,
          license_id: r.licenseId,
          status: r.status,
          created_at: r.createdAt,
          updated_at: stamp(),
          body: JSON.stringify(r),
        })
        .execute();
    },
    swap: (id, from, change) =>
      inTransaction(async (trx) => {
        let q = trx.selectFrom('extension_requests').select(['body']).where('id', '=', id);
        if (opts.dialect === 'postgres') q = q.forUpdate();
        const row = await q.executeTakeFirst();
        const current = row ? readStoredExtension(row.body) : undefined;
        if (!current || !from.includes(current.status)) return { changed: false as const, request: current };
        const next = await change(structuredClone(current));
        await write(trx, next);
        return { changed: true as const, request: next };
      }),
    async lockLicense(licenseId) {
      if (opts.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtext(${`license-desk:extension:${licenseId}`}))`.execute(db);
      }
    },
    async setCards(id, cards) {
      await inTransaction(async (trx) => {
        const row = await trx.selectFrom('extension_requests').select(['body']).where('id', '=', id).executeTakeFirst();
        const current = row ? readStoredExtension(row.body) : undefined;
        if (current) await write(trx, { ...current, cards });
      });
    },
    transaction: run,
    durableTransaction: (fn) => (bound || !opts.durably ? run(fn) : opts.durably(() => run(fn))),
  };
}
