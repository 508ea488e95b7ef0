/**
 * The waitlist's queries. The lines are not a list of their own: a request waiting for a seat of its
 * pool is `waitlisted` and carries a `waitlist_rank` (lower goes first), and a pool's line is its
 * ranked requests in rank order (index `requests_waitlist` on `pool_id, waitlist_rank`).
 */

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import type { CourseRequest } from '../domain/requests.js';
import { entryOfRequest, type WaitlistLines } from '../domain/waitlist.js';
import { type StoreBase, storeBase } from './base.js';

/** The lines, read and changed as a whole (the waitlist service's view of the ranks). */
export interface WaitlistStore {
  read(): Promise<WaitlistLines>;
  update<T>(change: (lines: WaitlistLines) => T): Promise<T>;
}

export interface LineQueries {
  /**
   * An approved request joins the end of its pool's line: status `waitlisted` and the next rank, in
   * one step. Refused (with what the request is now) unless it is `approved`.
   */
  joinLine(
    id: string,
    at: string,
  ): Promise<{ ok: true; request: CourseRequest; place: number } | { ok: false; request: CourseRequest | undefined }>;
  /** The place (1-based) of a request in its pool's line, or undefined when it holds none. */
  placeOf(id: string): Promise<number | undefined>;
  /** The lines: every request with a rank, by pool, first first. */
  lines(poolId?: string): Promise<WaitlistLines>;
  /** Puts the line of `poolId` in this order (request ids; those left out keep no rank). */
  reorder(poolId: string, ids: readonly string[]): Promise<void>;
  /** The lines as the waitlist service reads and changes them (a view of the ranks, not a second list). */
  waitlistStore(): WaitlistStore;
}

/**
 * The end of a pool's line, read inside the transaction that takes it. PostgreSQL: the pool's line
 * is locked for the transaction first (an advisory lock on its name), so two joins at once take two
 * places; SQLite has one writer already.
 */
async function nextRank(b: StoreBase, trx: Kysely<Database>, poolId: string): Promise<number> {
  if (b.opts.dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`license-desk:line:${poolId}`}))`.execute(trx);
  }
  const row = await trx
    .selectFrom('requests')
    .select((eb) => eb.fn.max('waitlist_rank').as('top'))
    .where('pool_id', '=', poolId)
    .executeTakeFirst();
  return (row?.top === null || row?.top === undefined ? 0 : Number(row.top)) + 1;
}

async function placeIn(q: Kysely<Database>, id: string): Promise<number | undefined> {
  const row = await q
    .selectFrom('requests')
    .select(['pool_id', 'waitlist_rank'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.waitlist_rank === null) return undefined;
  const ahead = await q
    .selectFrom('requests')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('pool_id', '=', row.pool_id)
    .where('waitlist_rank', '<', row.waitlist_rank)
    .executeTakeFirst();
  return Number(ahead?.n ?? 0) + 1;
}

/** Moves and removals only, as the lines changed: a request joins a line through joinLine (with its status). */
async function applyLines(b: StoreBase, trx: Kysely<Database>, before: WaitlistLines, after: WaitlistLines) {
  const inside = lineQueries(storeBase(b.opts, trx));
  const kept = new Set(Object.values(after).flatMap((line) => line.map((e) => e.requestId)));
  for (const e of Object.values(before).flat()) {
    if (kept.has(e.requestId)) continue;
    await trx
      .updateTable('requests')
      .set({ waitlist_rank: null, updated_at: b.stamp() })
      .where('id', '=', e.requestId)
      .execute();
  }
  for (const [poolId, line] of Object.entries(after)) {
    const was = (before[poolId] ?? []).map((e) => e.requestId).join(',');
    const ids = line.map((e) => e.requestId);
    if (ids.join(',') !== was) await inside.reorder(poolId, ids);
  }
}

export function lineQueries(b: StoreBase): LineQueries {
  const queries: LineQueries = {
    joinLine: (id, at) =>
      b.inTransaction(async (trx) => {
        const row = await b.readLocked(trx, id);
        if (!row) return { ok: false as const, request: undefined };
        const current = b.parse(row);
        if (current.status !== 'approved') return { ok: false as const, request: current };
        const next: CourseRequest = { ...current, status: 'waitlisted', waitlistedAt: at };
        delete next.seatChoice;
        await b.write(trx, next, await nextRank(b, trx, current.poolId));
        return { ok: true as const, request: next, place: (await placeIn(trx, id)) ?? 1 };
      }),
    placeOf: (id) => placeIn(b.db, id),
    async lines(poolId) {
      let q = b.db
        .selectFrom('requests')
        .select(['id', 'body', 'pool_id'])
        .where('waitlist_rank', 'is not', null)
        .orderBy('pool_id')
        .orderBy('waitlist_rank');
      if (poolId !== undefined) q = q.where('pool_id', '=', poolId);
      const out: WaitlistLines = {};
      // A row that cannot be read keeps its rank (the places of the others stay as they are) but is
      // shown and given nothing: its id is in the log.
      for (const request of b.parseAll(await q.execute())) {
        const line = out[request.poolId] ?? [];
        line.push(entryOfRequest(request));
        out[request.poolId] = line;
      }
      return out;
    },
    reorder: (poolId, ids) =>
      b.inTransaction(async (trx) => {
        let i = 0;
        for (const id of ids) {
          i++;
          await trx
            .updateTable('requests')
            .set({ waitlist_rank: i, updated_at: b.stamp() })
            .where('id', '=', id)
            .where('pool_id', '=', poolId)
            .where('waitlist_rank', 'is not', null)
            .execute();
        }
      }),
    waitlistStore: () => ({
      read: () => queries.lines(),
      update: (change) =>
        b.inTransaction(async (trx) => {
          const before = await lineQueries(storeBase(b.opts, trx)).lines();
          const after = structuredClone(before);
          const result = change(after);
          await applyLines(b, trx, before, after);
          return result;
        }),
    }),
  };
  return queries;
}
