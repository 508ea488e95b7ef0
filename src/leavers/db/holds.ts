/**
 * Every query of leavers (docs/leavers-and-offers.md#leavers): the holds on a deactivated member's licenses, one row per
 * license, their claims while a return is sent, and the weekly sweep's claim per week.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import { ownRevokesSince } from '../../kernel/db/own-revokes.js';
import type { Database, LeaverHoldRow } from '../../kernel/db/schema.js';
import type { HeldSeat, ListedHold } from '../domain/leavers.js';

export type { LeaverHoldRow };

export type HoldEnd = 'returned' | 'failed' | 'gone' | 'listed';

export interface LeaverHolds {
  /**
   * Puts each seat on hold from `since` until `due`: a license already on hold keeps its own dates, one
   * whose earlier hold was cancelled is held afresh. The licenses held by this call.
   */
  hold(p: { email: string; slackUser?: string; since: Date; due: Date; seats: HeldSeat[] }): Promise<string[]>;
  /** The holds still waiting for the grace of one e-mail. */
  heldOf(email: string): Promise<LeaverHoldRow[]>;
  /** A hold still waiting of this Slack member, if any. */
  heldBySlackUser(slackUser: string): Promise<LeaverHoldRow | undefined>;
  /** Cancels the holds still waiting of one e-mail (a reactivation); the rows cancelled. */
  cancel(email: string, at: Date): Promise<LeaverHoldRow[]>;
  /** Holds whose grace is over, oldest first, at most `limit`. */
  due(now: Date, limit: number): Promise<LeaverHoldRow[]>;
  /** Claims one return for the run `runId`; false when it is no longer waiting. */
  claim(licenseId: string, runId: string, at: Date): Promise<boolean>;
  /** Returns still being sent by a run other than `runId` (a process killed mid-return). */
  leftBy(runId: string): Promise<LeaverHoldRow[]>;
  /** Takes a left return over for `runId`; false when another run took it first. */
  takeOver(row: LeaverHoldRow, runId: string, at: Date): Promise<boolean>;
  /** Ends a hold (from waiting or returning); false when it had ended already. */
  finish(licenseId: string, state: HoldEnd, at: Date, detail?: string): Promise<boolean>;
  /** Gives a claim back (nothing was sent): the next run picks it again. */
  release(licenseId: string): Promise<void>;
  /** License Desk's revokes of a license since `since`, newest first (the write ledger's intents). */
  revokesSince(licenseId: string, since: string): Promise<{ state: string }[]>;
  /** What App Home lists: holds waiting, and untransferable seats listed since `listedSince`; newest first. */
  listed(limit: number, listedSince: Date): Promise<{ holds: ListedHold[]; total: number }>;
  /** Claims this week's sweep; false when it ran (or runs) already. */
  claimWeek(week: string, at: Date): Promise<boolean>;
  finishWeek(week: string, at: Date, counts: { lookedUp: number; found: number }): Promise<void>;
  /** The records these run on (or the transaction): what the outbox enqueues with. */
  readonly handle: Kysely<Database>;
  transaction<T>(work: (tx: LeaverHolds) => Promise<T>): Promise<T>;
}

const WAITING = 'held';
const RETURNING = 'returning';

function listedOf(r: LeaverHoldRow): ListedHold {
  return {
    licenseId: r.license_id,
    poolId: r.pool_id,
    ...(r.course_title ? { courseTitle: r.course_title } : {}),
    transferable: r.transferable === 1,
    email: r.student_email,
    ...(r.slack_user ? { slackUser: r.slack_user } : {}),
    since: r.since,
    due: r.due,
    state: r.state === 'listed' ? 'listed' : 'held',
  };
}

const updated = (r: { numUpdatedRows: bigint }) => Number(r.numUpdatedRows) > 0;

/** Holds made and cancelled. */
function holdQueries(db: Kysely<Database>): Pick<LeaverHolds, 'hold' | 'heldOf' | 'heldBySlackUser' | 'cancel'> {
  const heldOf = (email: string) =>
    db
      .selectFrom('leaver_holds')
      .selectAll()
      .where('student_email', '=', email)
      .where('state', '=', WAITING)
      .orderBy('license_id')
      .execute();
  return {
    heldOf,
    async hold({ email, slackUser, since, due, seats }) {
      const held: string[] = [];
      for (const s of seats) {
        const values = {
          license_id: s.licenseId,
          pool_id: s.poolId,
          student_email: email,
          slack_user: slackUser ?? null,
          course_title: s.courseTitle ?? null,
          transferable: s.transferable ? 1 : 0,
          since: since.toISOString(),
          due: due.toISOString(),
          state: WAITING,
          claimed_by: null,
          claimed_at: null,
          claimed_until: null,
          ended_at: null,
          detail: null,
        };
        const r = await db
          .insertInto('leaver_holds')
          .values(values)
          .onConflict((oc) =>
            oc
              .column('license_id')
              .doUpdateSet(values)
              .where('leaver_holds.state', 'in', ['cancelled', 'gone', 'failed']),
          )
          .executeTakeFirst();
        if (Number(r.numInsertedOrUpdatedRows ?? 0n) > 0) held.push(s.licenseId);
      }
      return held;
    },

    heldBySlackUser: (slackUser) =>
      db
        .selectFrom('leaver_holds')
        .selectAll()
        .where('slack_user', '=', slackUser)
        .where('state', '=', WAITING)
        .executeTakeFirst(),

    async cancel(email, at) {
      const rows = await heldOf(email);
      const mine: LeaverHoldRow[] = [];
      for (const row of rows) {
        const r = await db
          .updateTable('leaver_holds')
          .set({ state: 'cancelled', ended_at: at.toISOString() })
          .where('license_id', '=', row.license_id)
          .where('state', '=', WAITING)
          .executeTakeFirst();
        if (updated(r)) mine.push(row);
      }
      return mine;
    },
  };
}

/** Returns claimed, taken over and ended. */
function returnQueries(
  db: Kysely<Database>,
): Pick<LeaverHolds, 'due' | 'claim' | 'leftBy' | 'takeOver' | 'finish' | 'release' | 'revokesSince'> {
  return {
    due: (now, limit) =>
      db
        .selectFrom('leaver_holds')
        .selectAll()
        .where('state', '=', WAITING)
        .where('due', '<=', now.toISOString())
        .orderBy('due')
        .orderBy('license_id')
        .limit(limit)
        .execute(),

    async claim(licenseId, runId, at) {
      const r = await db
        .updateTable('leaver_holds')
        .set({ state: RETURNING, claimed_by: runId, claimed_at: at.toISOString() })
        .where('license_id', '=', licenseId)
        .where('state', '=', WAITING)
        .executeTakeFirst();
      return updated(r);
    },

    leftBy: (runId) =>
      db
        .selectFrom('leaver_holds')
        .selectAll()
        .where('state', '=', RETURNING)
        .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '!=', runId)]))
        .execute(),

    async takeOver(row, runId, at) {
      const r = await db
        .updateTable('leaver_holds')
        .set({ claimed_by: runId, claimed_until: at.toISOString() })
        .where('license_id', '=', row.license_id)
        .where('state', '=', RETURNING)
        .where((eb) => (row.claimed_by === null ? eb('claimed_by', 'is', null) : eb('claimed_by', '=', row.claimed_by)))
        .executeTakeFirst();
      return updated(r);
    },

    async finish(licenseId, state, at, detail) {
      const r = await db
        .updateTable('leaver_holds')
        .set({ state, ended_at: at.toISOString(), detail: detail ?? null })
        .where('license_id', '=', licenseId)
        .where('state', 'in', [WAITING, RETURNING])
        .executeTakeFirst();
      return updated(r);
    },

    async release(licenseId) {
      await db
        .updateTable('leaver_holds')
        .set({ state: WAITING, claimed_by: null, claimed_at: null })
        .where('license_id', '=', licenseId)
        .where('state', '=', RETURNING)
        .execute();
    },

    revokesSince: (licenseId, since) => ownRevokesSince(db, licenseId, since),
  };
}

/** App Home's list and the sweep's weeks. */
function viewQueries(db: Kysely<Database>): Pick<LeaverHolds, 'listed' | 'claimWeek' | 'finishWeek'> {
  return {
    async listed(limit, listedSince) {
      const shown = (eb: ExpressionBuilder<Database, 'leaver_holds'>) =>
        eb.or([
          eb('state', '=', WAITING),
          eb.and([eb('state', '=', 'listed'), eb('ended_at', '>=', listedSince.toISOString())]),
        ]);
      const rows = await db
        .selectFrom('leaver_holds')
        .selectAll()
        .where(shown)
        .orderBy('since', 'desc')
        .orderBy('license_id')
        .limit(limit)
        .execute();
      const count = await db
        .selectFrom('leaver_holds')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where(shown)
        .executeTakeFirst();
      return { holds: rows.map(listedOf), total: Number(count?.n ?? 0) };
    },

    async claimWeek(week, at) {
      const r = await db
        .insertInto('leaver_sweeps')
        .values({ week, started_at: at.toISOString(), finished_at: null, looked_up: null, found: null })
        .onConflict((oc) => oc.column('week').doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    async finishWeek(week, at, counts) {
      await db
        .updateTable('leaver_sweeps')
        .set({ finished_at: at.toISOString(), looked_up: counts.lookedUp, found: counts.found })
        .where('week', '=', week)
        .execute();
    },
  };
}

export function createLeaverHolds(records: Pick<Records, 'db'>): LeaverHolds {
  const db: Kysely<Database> = records.db;
  return {
    ...holdQueries(db),
    ...returnQueries(db),
    ...viewQueries(db),
    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createLeaverHolds({ db: trx }))),
  };
}
