/**
 * The queries on requests one by one: read by id, requester or status; create or replace; change one
 * (read locked, changed and written in one transaction), only from the statuses given (a
 * compare-and-set: the first decision wins); prune the decided ones no longer needed; add the
 * requests of an earlier version's files as they are.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import {
  applyDecision,
  type CourseRequest,
  prunable,
  type RequestStatus,
  type RequestStore,
} from '../domain/requests.js';
import type { StoreBase } from './base.js';
import { columnsOf } from './rows.js';

/** swap's answer: the request as changed, or what it is now (undefined: no such request). */
export type Swapped =
  | { changed: true; request: CourseRequest }
  | { changed: false; request: CourseRequest | undefined };

export interface RequestQueries extends RequestStore {
  /**
   * Changes the request only when its status is one of `from` (a compare-and-set): the request as
   * changed, or `{ changed: false, request }` with what it is now (undefined: no such request).
   * `rank` gives it a new place in line, from the one it has.
   */
  swap(
    id: string,
    from: readonly RequestStatus[],
    change: (request: CourseRequest) => CourseRequest | Promise<CourseRequest>,
    rank?: (current: number | null, trx: Kysely<Database>) => Promise<number | null> | number | null,
  ): Promise<Swapped>;
  /** Adds requests as they are (the import of the old files): ids already there are left alone. */
  insertMany(requests: readonly { request: CourseRequest; rank: number | null }[]): Promise<number>;
}

const FINAL: RequestStatus[] = ['assigned', 'denied', 'expired', 'cancelled'];

export function requestQueries(b: StoreBase): RequestQueries {
  const { db } = b;
  const listed = (column: 'requester' | 'status', value: string) =>
    db
      .selectFrom('requests')
      .select(['id', 'body'])
      .where(column, '=', value)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
      .then(b.parseAll);

  const swap: RequestQueries['swap'] = (id, from, change, rank) =>
    b.inTransaction(async (trx) => {
      const row = await b.readLocked(trx, id);
      if (!row) return { changed: false as const, request: undefined };
      const current = b.parse(row);
      if (!from.includes(current.status)) return { changed: false as const, request: current };
      const next = await change(structuredClone(current));
      await b.write(trx, next, rank ? await rank(row.waitlist_rank, trx) : undefined);
      return { changed: true as const, request: next };
    });

  return {
    swap,
    async get(id) {
      const row = await db.selectFrom('requests').select(['id', 'body']).where('id', '=', id).executeTakeFirst();
      return row ? b.parse(row) : undefined;
    },
    async put(request) {
      const columns = columnsOf(request, b.stamp());
      await db
        .insertInto('requests')
        .values({ id: request.id, created_at: request.createdAt, waitlist_rank: null, ...columns })
        .onConflict((oc) => oc.column('id').doUpdateSet(columns))
        .execute();
    },
    update: (id, change) =>
      b.inTransaction(async (trx) => {
        const row = await b.readLocked(trx, id);
        if (!row) return undefined;
        const r = b.parse(row);
        change(r);
        await b.write(trx, r);
        return r;
      }),
    byRequester: (userId) => listed('requester', userId),
    byStatus: (status) => listed('status', status),
    async decide(id, decision) {
      const result = await swap(id, ['pending'], (r) => applyDecision(r, decision));
      if (result.changed) return { ok: true, request: result.request };
      return result.request
        ? { ok: false, reason: 'already', request: result.request }
        : { ok: false, reason: 'not-found' };
    },
    async prune(now) {
      const final = await db.selectFrom('requests').select(['id', 'body']).where('status', 'in', FINAL).execute();
      const ids = prunable(b.parseAll(final), now);
      let dropped = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        const result = await db
          .deleteFrom('requests')
          .where('id', 'in', part)
          .where('status', 'in', FINAL)
          .executeTakeFirst();
        dropped += Number(result.numDeletedRows);
      }
      return dropped;
    },
    insertMany: (items) =>
      b.inTransaction(async (trx) => {
        let added = 0;
        for (const { request, rank } of items) {
          const result = await trx
            .insertInto('requests')
            .values({
              id: request.id,
              created_at: request.createdAt,
              waitlist_rank: rank,
              ...columnsOf(request, b.stamp()),
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .executeTakeFirst();
          added += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        return added;
      }),
  };
}
