/**
 * The records of the automatic return of finished seats (docs/progress.md): which completed licenses
 * are due to be returned, and the claim of each return (`progress_returns`, one row per license ever
 * claimed), made before its DELETE is sent. A license is claimed once: the row's primary key is the
 * license id, so a second pass or a second replica finds it taken. A claim left `returning` by a
 * process that died runs out (`claimed_until`) and is taken over by a conditional update, so one
 * process reads it back; the revokes License Desk recorded for it (`intents`) tell how far it got.
 */
import { type Kysely, sql } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import { ownRevokesSince } from '../../kernel/db/own-revokes.js';
import type { Database, ProgressReturnRow } from '../../kernel/db/schema.js';
import { dayOf } from '../../kernel/domain/end-date.js';

/** A completed license due to be returned. */
export interface ReturnCandidate {
  licenseId: string;
  poolId: string;
  studentEmail: string;
  studentName: string;
  /** When the pass first saw the completion (the history row where it appeared). */
  completionSeenAt: string;
  /** YYYY-MM-DD: the service's completion date, else the day the completion was first seen. */
  completedOn: string;
}

export type ReturnState = 'returning' | 'returned' | 'failed' | 'gone';

/** What a read-back of a claim a dead process left needs to know. */
export interface ReturnReadBacks {
  /** The completion date the licensing service gave a license, as the progress records keep it. */
  completionOf(licenseId: string): Promise<string | null | undefined>;
  /** The revokes License Desk recorded for a license since `since` (its intents), newest first. */
  revokesSince(licenseId: string, since: string): Promise<{ instance: string; state: string }[]>;
  /** The processes that were seen since `since` (PostgreSQL's heartbeats). */
  seenSince(since: Date): Promise<Set<string>>;
}

export interface ProgressReturns extends ReturnReadBacks {
  /**
   * Active licenses whose course is completed, in pools whose last stored day says transferable, whose
   * completion was first seen at least `afterDays` before `now` and that were never claimed: the oldest
   * completion first, at most `limit`.
   */
  due(now: Date, afterDays: number, limit: number): Promise<ReturnCandidate[]>;
  /** Claims the return of one license until `claimedUntil`; false when it was claimed before (by anyone). */
  claim(c: ReturnCandidate, passStartedAt: string, now: Date, claimedUntil: Date): Promise<boolean>;
  /** How many returns the pass that started at `passStartedAt` claimed (its cap counts them all). */
  claimedBy(passStartedAt: string): Promise<number>;
  /** Takes over claims still `returning` whose time ran out (a process died); those this call took. */
  takeOver(now: Date, claimedUntil: Date): Promise<ProgressReturnRow[]>;
  /** Claims still `returning` and not run out at `now`. */
  running(now: Date): Promise<ProgressReturnRow[]>;
  /** Takes one claim over until `claimedUntil`, unless another process moved it first; whether this call did. */
  takeOverOne(row: ProgressReturnRow, claimedUntil: Date): Promise<boolean>;
  /** Ends a claim still `returning`; false when it was no longer `returning`. */
  finish(
    licenseId: string,
    state: Exclude<ReturnState, 'returning'>,
    at: Date,
    facts: { courseTitle?: string; detail?: string },
  ): Promise<boolean>;
  /** Gives a claim up when nothing was sent (the license could not be read): a later pass picks it again. */
  drop(licenseId: string): Promise<void>;
  get(licenseId: string): Promise<ProgressReturnRow | undefined>;
  /** The database (or the transaction) these records run on: what the outbox enqueues with. */
  readonly handle: Kysely<Database>;
  /** Runs `work` in one transaction, on these records bound to it. */
  transaction<T>(work: (tx: ProgressReturns) => Promise<T>): Promise<T>;
}

export function createProgressReturns(records: Pick<Records, 'db'>): ProgressReturns {
  const db: Kysely<Database> = records.db;
  const self: ProgressReturns = {
    ...readBacks(db),
    due: (now, afterDays, limit) => dueReturns(db, now, afterDays, limit),
    claim: (c, passStartedAt, now, claimedUntil) => claimReturn(db, c, passStartedAt, now, claimedUntil),

    async claimedBy(passStartedAt) {
      const r = await db
        .selectFrom('progress_returns')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('pass_started_at', '=', passStartedAt)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async takeOver(now, claimedUntil) {
      const stale = await db
        .selectFrom('progress_returns')
        .selectAll()
        .where('state', '=', 'returning')
        .where('claimed_until', '<', now.toISOString())
        .orderBy('claimed_at')
        .orderBy('license_id')
        .execute();
      const mine: ProgressReturnRow[] = [];
      for (const row of stale)
        if (await self.takeOverOne(row, claimedUntil)) mine.push({ ...row, claimed_until: claimedUntil.toISOString() });
      return mine;
    },

    running: (now) =>
      db
        .selectFrom('progress_returns')
        .selectAll()
        .where('state', '=', 'returning')
        .where('claimed_until', '>=', now.toISOString())
        .execute(),

    async takeOverOne(row, claimedUntil) {
      const r = await db
        .updateTable('progress_returns')
        .set({ claimed_until: claimedUntil.toISOString() })
        .where('license_id', '=', row.license_id)
        .where('state', '=', 'returning')
        .where('claimed_until', '=', row.claimed_until)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async finish(licenseId, state, at, facts) {
      const r = await db
        .updateTable('progress_returns')
        .set({
          state,
          done_at: at.toISOString(),
          ...(facts.courseTitle ? { course_title: facts.courseTitle } : {}),
          ...(facts.detail ? { detail: facts.detail } : {}),
        })
        .where('license_id', '=', licenseId)
        .where('state', '=', 'returning')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async drop(licenseId) {
      await db
        .deleteFrom('progress_returns')
        .where('license_id', '=', licenseId)
        .where('state', '=', 'returning')
        .execute();
    },

    get: (licenseId) =>
      db.selectFrom('progress_returns').selectAll().where('license_id', '=', licenseId).executeTakeFirst(),

    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createProgressReturns({ db: trx }))),
  };
  return self;
}

function readBacks(db: Kysely<Database>): ReturnReadBacks {
  return {
    async completionOf(licenseId) {
      const row = await db
        .selectFrom('license_progress')
        .select('completed')
        .where('license_id', '=', licenseId)
        .executeTakeFirst();
      return row?.completed;
    },

    revokesSince: (licenseId, since) => ownRevokesSince(db, licenseId, since),

    seenSince: async (since) =>
      new Set(
        (await db.selectFrom('instances').select('id').where('seen_at', '>=', since.toISOString()).execute()).map(
          (r) => r.id,
        ),
      ),
  };
}

/** The claim of one return: the row's primary key refuses a second. */
async function claimReturn(
  db: Kysely<Database>,
  c: ReturnCandidate,
  passStartedAt: string,
  now: Date,
  claimedUntil: Date,
): Promise<boolean> {
  const rows = await db
    .insertInto('progress_returns')
    .values({
      license_id: c.licenseId,
      pool_id: c.poolId,
      student_email: c.studentEmail.toLowerCase(),
      student_name: c.studentName,
      completed_on: c.completedOn,
      pass_started_at: passStartedAt,
      state: 'returning',
      claimed_at: now.toISOString(),
      claimed_until: claimedUntil.toISOString(),
      course_title: null,
      done_at: null,
      detail: null,
    })
    .onConflict((oc) => oc.column('license_id').doNothing())
    .returning('license_id')
    .execute();
  return rows.length === 1;
}

/** The licenses due to be returned (ProgressReturns.due). */
async function dueReturns(
  db: Kysely<Database>,
  now: Date,
  afterDays: number,
  limit: number,
): Promise<ReturnCandidate[]> {
  const cutoff = new Date(now.getTime() - afterDays * 86_400_000).toISOString();
  // The row where each license's completion first appeared.
  const firstDone = db
    .selectFrom('progress_history')
    .select(['license_id', (eb) => eb.fn.min('at').as('done_at')])
    .where((eb) => eb.or([eb('completed', 'is not', null), eb('progress', '>=', 100)]))
    .groupBy('license_id');
  // Pools whose last stored day says transferable: a revoke there gives the seat back.
  const lastDay = db
    .selectFrom('pool_usage')
    .select(['pool_id', (eb) => eb.fn.max('day').as('day')])
    .groupBy('pool_id');
  const transferable = db
    .selectFrom('pool_usage as u')
    .innerJoin(lastDay.as('l'), (j) => j.onRef('l.pool_id', '=', 'u.pool_id').onRef('l.day', '=', 'u.day'))
    .select('u.pool_id')
    .where('u.transferable', '=', 1);
  const rows = await db
    .selectFrom('license_progress as p')
    .innerJoin(firstDone.as('f'), 'f.license_id', 'p.license_id')
    .select(['p.license_id', 'p.pool_id', 'p.student_email', 'p.student_name', 'p.completed', 'f.done_at'])
    .where('p.active', '=', 1)
    // Completed, as isCompleted says: a completion date, or 100 %.
    .where(sql<boolean>`(p.completed is not null or p.progress >= 100)`)
    .where('p.pool_id', 'in', transferable)
    .where('f.done_at', '<=', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('progress_returns as r').select('r.license_id').whereRef('r.license_id', '=', 'p.license_id'),
        ),
      ),
    )
    .orderBy('f.done_at')
    .orderBy('p.license_id')
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const seen = String(r.done_at);
    return {
      licenseId: r.license_id,
      poolId: r.pool_id,
      studentEmail: r.student_email,
      studentName: r.student_name,
      completionSeenAt: seen,
      completedOn: (r.completed ? dayOf(r.completed) : '') || dayOf(seen),
    };
  });
}
