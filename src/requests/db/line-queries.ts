/**
 * The waitlist's queries. The lines are not a list of their own: a request waiting for a seat of its
 * pool is `waitlisted` and carries a `waitlist_rank` (lower goes first), and a pool's line is its
 * ranked requests in rank order (index `requests_waitlist` on `pool_id, waitlist_rank`).
 */

import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import type { CourseRequest } from '../domain/requests.js';
import { entryOfRequest, type WaitlistEntry, type WaitlistLines } from '../domain/waitlist.js';
import type { StoreBase } from './base.js';

/**
 * The queries the waitlist service runs (services/waitlist.ts): a pool's line read, and one request's
 * place changed, each a row of its own; a request joins a line through joinLine (with its status).
 */
export interface WaitlistStore {
  /** The lines: every request with a rank, by pool, first first (or only the line of `poolId`). */
  lines(poolId?: string): Promise<WaitlistLines>;
  /**
   * Moves a request to `toIndex` (0-based, clamped to the line) in its pool's line, by giving its row
   * a rank between its new neighbours': its new place, or undefined when it holds none.
   */
  moveTo(requestId: string, toIndex: number): Promise<number | undefined>;
  /** The request's row gives up its place in line: the entry it had, or undefined when it held none. */
  leave(requestId: string): Promise<WaitlistEntry | undefined>;
}

export interface LineQueries extends WaitlistStore {
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
  /** What the waitlist service reads and changes of the lines (a view of the ranks, not a second list). */
  waitlistStore(): WaitlistStore;
}

/** PostgreSQL: the pool's line locked for the transaction (an advisory lock on its name); SQLite has one writer. */
async function lockLine(b: StoreBase, trx: Kysely<Database>, poolId: string): Promise<void> {
  await lockPoolLine(b.opts.dialect, trx, poolId);
}

/** The pool's line locked for the transaction on PostgreSQL (the offers' store takes it too). */
export async function lockPoolLine(dialect: 'sqlite' | 'postgres', trx: Kysely<Database>, poolId: string) {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`license-desk:line:${poolId}`}))`.execute(trx);
  }
}

/**
 * The end of a pool's line, read inside the transaction that takes it. PostgreSQL: the pool's line
 * is locked for the transaction first (an advisory lock on its name), so two joins at once take two
 * places; SQLite has one writer already.
 */
async function nextRank(b: StoreBase, trx: Kysely<Database>, poolId: string): Promise<number> {
  await lockLine(b, trx, poolId);
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

/** A pool's line as ids and ranks, first first; rows that cannot be read take no place (as lines() shows it). */
async function rankedLine(b: StoreBase, trx: Kysely<Database>, poolId: string) {
  const rows = await trx
    .selectFrom('requests')
    .select(['id', 'body', 'waitlist_rank'])
    .where('pool_id', '=', poolId)
    .where('waitlist_rank', 'is not', null)
    .orderBy('waitlist_rank')
    .execute();
  const readable = new Set(b.parseAll(rows).map((r) => r.id));
  return rows.filter((r) => readable.has(r.id)).map((r) => ({ id: r.id, rank: Number(r.waitlist_rank) }));
}

/** The rank that puts a request at `to` among `others` (its line without it); undefined when no number fits. */
function rankAt(others: readonly { rank: number }[], to: number): number | undefined {
  const before = others[to - 1]?.rank;
  const after = others[to]?.rank;
  if (before === undefined) return after === undefined ? 1 : after - 1;
  if (after === undefined) return before + 1;
  const middle = (before + after) / 2;
  return middle > before && middle < after ? middle : undefined;
}

/** Moves one request in its line: one row's rank, or the line renumbered when no rank fits between. */
async function moveIn(b: StoreBase, trx: Kysely<Database>, requestId: string, toIndex: number) {
  const row = await trx.selectFrom('requests').select(['pool_id']).where('id', '=', requestId).executeTakeFirst();
  if (!row) return undefined;
  await lockLine(b, trx, row.pool_id);
  const line = await rankedLine(b, trx, row.pool_id);
  const from = line.findIndex((e) => e.id === requestId);
  if (from < 0) return undefined;
  const to = Math.max(0, Math.min(line.length - 1, Number.isFinite(toIndex) ? Math.trunc(toIndex) : from));
  const others = line.filter((e) => e.id !== requestId);
  const setRank = (id: string, rank: number) =>
    trx.updateTable('requests').set({ waitlist_rank: rank, updated_at: b.stamp() }).where('id', '=', id).execute();
  const rank = rankAt(others, to);
  if (rank !== undefined) await setRank(requestId, rank);
  else {
    const order = [...others.slice(0, to).map((e) => e.id), requestId, ...others.slice(to).map((e) => e.id)];
    for (const [i, id] of order.entries()) await setRank(id, i + 1);
  }
  return to + 1;
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
    moveTo: (requestId, toIndex) => b.inTransaction((trx) => moveIn(b, trx, requestId, toIndex)),
    leave: (requestId) =>
      b.inTransaction(async (trx) => {
        const row = await b.readLocked(trx, requestId);
        if (!row || row.waitlist_rank === null) return undefined;
        const request = b.parse(row);
        await trx
          .updateTable('requests')
          .set({ waitlist_rank: null, updated_at: b.stamp() })
          .where('id', '=', requestId)
          .execute();
        return entryOfRequest(request);
      }),
    waitlistStore: () => ({ lines: queries.lines, moveTo: queries.moveTo, leave: queries.leave }),
  };
  return queries;
}
