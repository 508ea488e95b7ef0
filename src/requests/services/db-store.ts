/**
 * Course requests in the database (docs/records.md, "Course requests and the waitlist"): one row per
 * request, the whole request as JSON in `body`, its status, requester and pool beside it for the
 * queries. The waitlist is not a second list: a request waiting for a seat of its pool carries a
 * `waitlist_rank` (lower goes first), and a pool's line is its waitlisted requests in rank order.
 *
 * Every change is read, changed and written in one transaction, the row locked on PostgreSQL
 * (`forUpdate`) and SQLite being a single writer, so two processes never both take one decision.
 * `within(trx)` gives the same store inside a caller's transaction (the request's change, its intent
 * and its messages are committed together).
 */
import { type Kysely, sql } from 'kysely';
import type { Database, RequestRow } from '../../kernel/db/schema.js';
import type { Logger } from '../../kernel/licensing/types.js';
import {
  applyDecision,
  type CourseRequest,
  type DecideResult,
  type Decision,
  prunable,
  type RequestStatus,
  type RequestStore,
  readStoredRequest,
  UnreadableRequestError,
} from '../domain/requests.js';
import type { WaitlistEntry, WaitlistLines } from '../domain/waitlist.js';

/** The lines, read and changed as a whole (the waitlist service's view of the ranks). */
export interface WaitlistStore {
  read(): Promise<WaitlistLines>;
  update<T>(change: (lines: WaitlistLines) => T): Promise<T>;
}

export interface DbRequestStore extends RequestStore {
  /** The same store writing inside `trx` (a transaction the caller commits). */
  within(trx: Kysely<Database>): DbRequestStore;
  /** Runs `fn` in one transaction (or in the caller's, when this store is `within` one). */
  transaction<T>(fn: (trx: Kysely<Database>, store: DbRequestStore) => Promise<T>): Promise<T>;
  /** As `transaction`, committed to disk before it returns (it records a licensing write's intent: Records.durably). */
  durableTransaction<T>(fn: (trx: Kysely<Database>, store: DbRequestStore) => Promise<T>): Promise<T>;
  /**
   * Changes the request only when its status is one of `from` (a compare-and-set): the request as
   * changed, or `{ changed: false, request }` with what it is now (undefined: no such request).
   */
  swap(
    id: string,
    from: readonly RequestStatus[],
    change: (request: CourseRequest) => CourseRequest | Promise<CourseRequest>,
    rank?: (current: number | null, trx: Kysely<Database>) => Promise<number | null> | number | null,
  ): Promise<{ changed: true; request: CourseRequest } | { changed: false; request: CourseRequest | undefined }>;
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
  /** Adds requests as they are (the import of the old files): ids already there are left alone. */
  insertMany(requests: readonly { request: CourseRequest; rank: number | null }[]): Promise<number>;
}

export interface DbRequestStoreOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  now: () => Date;
  /** Records.durably: what `durableTransaction` commits through; unset, it is a plain transaction. */
  durably?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Where a request row that cannot be read is reported (a warning naming its id, once per row). */
  logger?: Logger;
}

/** Per store (its options, shared by every `within`): the ids of rows already reported as unreadable. */
const reportedBy = new WeakMap<DbRequestStoreOptions, Set<string>>();

/**
 * A request row that cannot be read (a body cut short, `null`, not a request): a warning naming its
 * id, never its contents (they may hold student data), once per row and store.
 */
function reportUnreadable(opts: DbRequestStoreOptions, id: string): void {
  let reported = reportedBy.get(opts);
  if (!reported) {
    reported = new Set();
    reportedBy.set(opts, reported);
  }
  if (reported.has(id)) return;
  if (reported.size < 10_000) reported.add(id);
  opts.logger?.warn('a course request in the records cannot be read (its stored data is damaged); it is left out', {
    requestId: id,
  });
}

/** The request of one row; an unreadable one throws UnreadableRequestError (an action on it is told so). */
function parseOne(row: Pick<RequestRow, 'id' | 'body'>, opts: DbRequestStoreOptions): CourseRequest {
  const request = readStoredRequest(row.body);
  if (request) return request;
  reportUnreadable(opts, row.id);
  throw new UnreadableRequestError(row.id);
}

/** The requests of a list of rows, those that cannot be read left out (each reported once). */
function parseMany(rows: readonly Pick<RequestRow, 'id' | 'body'>[], opts: DbRequestStoreOptions): CourseRequest[] {
  const out: CourseRequest[] = [];
  for (const row of rows) {
    const request = readStoredRequest(row.body);
    if (request) out.push(request);
    else reportUnreadable(opts, row.id);
  }
  return out;
}

/** The ids of the request rows that cannot be read (the start-up check reports them). */
export async function unreadableRequests(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('requests').select(['id', 'body']).orderBy('id').execute();
  return rows.filter((row) => readStoredRequest(row.body) === undefined).map((row) => row.id);
}

/** A waitlist entry as the waitlist shows it, derived from the request. */
export function entryOfRequest(r: CourseRequest): WaitlistEntry {
  return {
    requestId: r.id,
    poolId: r.poolId,
    requester: r.requester,
    ...(r.decidedBy ? { approver: r.decidedBy } : {}),
    ...(r.courseTitle ? { courseTitle: r.courseTitle } : {}),
    since: r.waitlistedAt ?? r.decidedAt ?? r.createdAt,
  };
}

export function createDbRequestStore(opts: DbRequestStoreOptions, bound?: Kysely<Database>): DbRequestStore {
  const db = bound ?? opts.db;
  const stamp = () => opts.now().toISOString();
  const parse = (row: Pick<RequestRow, 'id' | 'body'>) => parseOne(row, opts);
  const parseAll = (rows: readonly Pick<RequestRow, 'id' | 'body'>[]) => parseMany(rows, opts);

  async function inTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    if (bound) return fn(bound);
    return opts.db.transaction().execute((trx) => fn(trx));
  }

  async function readLocked(trx: Kysely<Database>, id: string): Promise<RequestRow | undefined> {
    let q = trx.selectFrom('requests').selectAll().where('id', '=', id);
    if (opts.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  async function write(trx: Kysely<Database>, r: CourseRequest, given: number | null | undefined): Promise<void> {
    // A request that no longer waits keeps no place in a line; one that waits (or is being assigned
    // from its line) keeps the one it has unless given another.
    const rank = given !== undefined ? given : r.status === 'waitlisted' || r.status === 'assigning' ? undefined : null;
    await trx
      .updateTable('requests')
      .set({
        status: r.status,
        pool_id: r.poolId,
        requester: r.requester,
        body: JSON.stringify(r),
        updated_at: stamp(),
        ...(rank !== undefined ? { waitlist_rank: rank } : {}),
      })
      .where('id', '=', r.id)
      .execute();
  }

  /**
   * The end of a pool's line, read inside the transaction that takes it. PostgreSQL: the pool's line
   * is locked for the transaction first (an advisory lock on its name), so two joins at once take two
   * places; SQLite has one writer already.
   */
  async function nextRank(trx: Kysely<Database>, poolId: string): Promise<number> {
    if (opts.dialect === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtext(${`license-desk:line:${poolId}`}))`.execute(trx);
    }
    const row = await trx
      .selectFrom('requests')
      .select((eb) => eb.fn.max('waitlist_rank').as('top'))
      .where('pool_id', '=', poolId)
      .executeTakeFirst();
    const top = row?.top === null || row?.top === undefined ? 0 : Number(row.top);
    return top + 1;
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

  const store: DbRequestStore = {
    within: (trx) => createDbRequestStore(opts, trx),
    transaction: (fn) => inTransaction((trx) => fn(trx, createDbRequestStore(opts, trx))),
    durableTransaction: (fn) => {
      const run = () => inTransaction((trx) => fn(trx, createDbRequestStore(opts, trx)));
      return bound || !opts.durably ? run() : opts.durably(run);
    },

    async get(id) {
      const row = await db.selectFrom('requests').select(['id', 'body']).where('id', '=', id).executeTakeFirst();
      return row ? parse(row) : undefined;
    },

    async put(request) {
      const at = stamp();
      await db
        .insertInto('requests')
        .values({
          id: request.id,
          requester: request.requester,
          pool_id: request.poolId,
          status: request.status,
          created_at: request.createdAt,
          waitlist_rank: null,
          updated_at: at,
          body: JSON.stringify(request),
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            requester: request.requester,
            pool_id: request.poolId,
            status: request.status,
            updated_at: at,
            body: JSON.stringify(request),
          }),
        )
        .execute();
    },

    async update(id, change) {
      return inTransaction(async (trx) => {
        const row = await readLocked(trx, id);
        if (!row) return undefined;
        const r = parse(row);
        change(r);
        await write(trx, r, undefined);
        return r;
      });
    },

    async swap(id, from, change, rank) {
      return inTransaction(async (trx) => {
        const row = await readLocked(trx, id);
        if (!row) return { changed: false as const, request: undefined };
        const current = parse(row);
        if (!from.includes(current.status)) return { changed: false as const, request: current };
        const next = await change(structuredClone(current));
        const newRank = rank ? await rank(row.waitlist_rank, trx) : undefined;
        await write(trx, next, newRank);
        return { changed: true as const, request: next };
      });
    },

    async joinLine(id, at) {
      return inTransaction(async (trx) => {
        const row = await readLocked(trx, id);
        if (!row) return { ok: false as const, request: undefined };
        const current = parse(row);
        if (current.status !== 'approved') return { ok: false as const, request: current };
        const next: CourseRequest = { ...current, status: 'waitlisted', waitlistedAt: at };
        delete next.seatChoice;
        await write(trx, next, await nextRank(trx, current.poolId));
        return { ok: true as const, request: next, place: (await placeIn(trx, id)) ?? 1 };
      });
    },

    placeOf: (id) => placeIn(db, id),

    async lines(poolId) {
      let q = db
        .selectFrom('requests')
        .select(['id', 'body', 'pool_id'])
        .where('waitlist_rank', 'is not', null)
        .orderBy('pool_id')
        .orderBy('waitlist_rank');
      if (poolId !== undefined) q = q.where('pool_id', '=', poolId);
      const out: WaitlistLines = {};
      // A row that cannot be read keeps its rank (the places of the others stay as they are) but is
      // shown and given nothing: its id is in the log.
      for (const request of parseAll(await q.execute())) {
        const line = out[request.poolId] ?? [];
        line.push(entryOfRequest(request));
        out[request.poolId] = line;
      }
      return out;
    },

    async reorder(poolId, ids) {
      await inTransaction(async (trx) => {
        let i = 0;
        for (const id of ids) {
          i++;
          await trx
            .updateTable('requests')
            .set({ waitlist_rank: i, updated_at: stamp() })
            .where('id', '=', id)
            .where('pool_id', '=', poolId)
            .where('waitlist_rank', 'is not', null)
            .execute();
        }
      });
    },

    waitlistStore() {
      return {
        read: () => store.lines(),
        async update(change) {
          // Moves and removals only: a request joins a line through joinLine (with its status).
          return inTransaction(async (trx) => {
            const inside = createDbRequestStore(opts, trx);
            const before = await inside.lines();
            const after = structuredClone(before);
            const result = change(after);
            const kept = new Set(Object.values(after).flatMap((line) => line.map((e) => e.requestId)));
            for (const line of Object.values(before)) {
              for (const e of line) {
                if (kept.has(e.requestId)) continue;
                await trx
                  .updateTable('requests')
                  .set({ waitlist_rank: null, updated_at: stamp() })
                  .where('id', '=', e.requestId)
                  .execute();
              }
            }
            for (const [poolId, line] of Object.entries(after)) {
              const was = (before[poolId] ?? []).map((e) => e.requestId).join(',');
              const ids = line.map((e) => e.requestId);
              if (ids.join(',') !== was) await inside.reorder(poolId, ids);
            }
            return result;
          });
        },
      };
    },

    async insertMany(items) {
      return inTransaction(async (trx) => {
        let added = 0;
        for (const { request, rank } of items) {
          const result = await trx
            .insertInto('requests')
            .values({
              id: request.id,
              requester: request.requester,
              pool_id: request.poolId,
              status: request.status,
              created_at: request.createdAt,
              waitlist_rank: rank,
              updated_at: stamp(),
              body: JSON.stringify(request),
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .executeTakeFirst();
          added += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        return added;
      });
    },

    async byRequester(userId) {
      const rows = await db
        .selectFrom('requests')
        .select(['id', 'body'])
        .where('requester', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return parseAll(rows);
    },

    async byStatus(status) {
      const rows = await db
        .selectFrom('requests')
        .select(['id', 'body'])
        .where('status', '=', status)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return parseAll(rows);
    },

    async decide(id: string, decision: Decision): Promise<DecideResult> {
      const result = await store.swap(id, ['pending'], (r) => applyDecision(r, decision));
      if (result.changed) return { ok: true, request: result.request };
      return result.request
        ? { ok: false, reason: 'already', request: result.request }
        : { ok: false, reason: 'not-found' };
    },

    async prune(now) {
      const final = await db
        .selectFrom('requests')
        .select(['id', 'body'])
        .where('status', 'in', ['assigned', 'denied', 'expired', 'cancelled'])
        .execute();
      const ids = prunable(parseAll(final), now);
      let dropped = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        const result = await db
          .deleteFrom('requests')
          .where('id', 'in', part)
          .where('status', 'in', ['assigned', 'denied', 'expired', 'cancelled'])
          .executeTakeFirst();
        dropped += Number(result.numDeletedRows);
      }
      return dropped;
    },
  };
  return store;
}
