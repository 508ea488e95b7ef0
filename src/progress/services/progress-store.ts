/**
 * The records of learning progress over time (docs/progress.md), one implementation for SQLite and
 * PostgreSQL: what each license was last seen at (`license_progress`), one history row per change
 * (`progress_history`, never one per day), and each pool's seats per day they changed (`pool_usage`).
 * Written by the daily progress pass; read by the pool and license views, App Home, the export, the
 * reclaim rounds and the digest.
 */
import { type ExpressionBuilder, type Insertable, type Kysely, sql } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import type {
  Database,
  LicenseProgressRow,
  LicenseProgressTable,
  ProgressHistoryRow,
  ProgressHistoryTable,
} from '../../kernel/db/schema.js';
import type { License } from '../../kernel/domain/types.js';
import {
  isCompleted,
  type LicenseProgress,
  type ProgressObservation,
  type ProgressThresholds,
  progressChanged,
} from '../domain/progress.js';

/** A pool's seats as a pass saw them. */
export interface PoolSeats {
  poolId: string;
  licenses: number;
  assigned: number;
  available: number;
  transferable: boolean;
  end: string;
}

/** One day of a pool's seats (a day on which they changed, or were first seen). */
export interface PoolUsageDay extends PoolSeats {
  /** YYYY-MM-DD (UTC). */
  day: string;
}

export interface ProgressChange {
  licenseId: string;
  poolId: string;
  studentEmail: string;
  progress: number;
  completed: string | null;
  at: string;
}

export interface RecordOutcome {
  /** Observations stored. */
  seen: number;
  /** Licenses seen for the first time (each got its first history row). */
  added: number;
  /** Licenses whose progress or completion changed (each got a history row). */
  changed: number;
}

export interface HolderFilter {
  poolId?: string;
  licenseIds?: readonly string[];
  /** Lower-case e-mail. */
  email?: string;
  /** Inactive licenses too (default: active only). */
  includeInactive?: boolean;
}

export interface ProgressStore {
  /** Stores what a pass saw: a history row for each new license and each change, the rest only marked seen. */
  record(observations: readonly ProgressObservation[], at: Date): Promise<RecordOutcome>;
  /**
   * After a whole pass: every active license the pass did not see (seen before `passStartedAt`) is no
   * longer held (revoked, expired or recycled); it is marked inactive. Returns how many.
   */
  closeUnseen(passStartedAt: Date): Promise<number>;
  /**
   * License Desk's own change, at once (docs/progress.md, "License Desk's own changes"): the license
   * is no longer held (revoked, recycled, returned). Returns whether a held license was marked.
   */
  markEnded(licenseId: string): Promise<boolean>;
  /**
   * A license as License Desk just wrote or read it (an assign, a new end date, a fresh read): its end
   * and whether it is held are stored at once. A license never seen before is added only with `add`
   * (an assign), at 0 % with its first history row, as a pass would first see it.
   */
  noteLicense(license: License, at: Date, opts?: { add?: boolean }): Promise<'added' | 'changed' | 'same'>;
  /** Stores each pool's seats for the day of `at` when they differ from the last day stored. */
  recordPools(pools: readonly PoolSeats[], at: Date): Promise<number>;
  holders(filter?: HolderFilter): Promise<LicenseProgress[]>;
  /** The changes of one license, oldest first. */
  historyOf(licenseId: string): Promise<ProgressChange[]>;
  /**
   * Licenses first seen completed in [from, to): the history row where the completion appeared, once
   * per license. A license already completed the first time License Desk saw it counts only when the
   * service's completion date falls in [from, to) too (a course finished before License Desk watched
   * is no completion of that week; without a date nobody knows when it was).
   */
  completedBetween(from: Date, to: Date): Promise<ProgressChange[]>;
  /**
   * The pools' seats by day since `since` (inclusive), oldest first; one pool or all. Each pool's last
   * day before `since`, when there is one, comes first, dated as it was: the seats the window starts with.
   */
  poolUsage(since: Date, poolId?: string): Promise<PoolUsageDay[]>;
  /** How many history rows there are (the figures). */
  historyRows(): Promise<number>;
  /**
   * Active holders per pool by where they stand (progressStanding's rule, counted in the database so
   * that App Home does not read every row): completed, not started, stalled, and all holders.
   */
  standingCounts(now: Date, thresholds: ProgressThresholds): Promise<PoolStandingCounts[]>;
  /**
   * Active holders of `standing` in the given pools, at most `limit`, in the order the digest lists
   * them (docs/digest.md): by the pool's place, then the name (A–Z case-insensitively; other
   * characters by code point), then the license id. The same standings as standingCounts.
   */
  listHolders(query: HolderListQuery): Promise<LicenseProgress[]>;
  /**
   * Active licenses whose course is completed, in pools whose last stored day says transferable (so the
   * seat comes back when revoked): the most recent completions first, at most `limit`, and how many in all.
   */
  completedInTransferable(limit: number): Promise<{ rows: LicenseProgress[]; total: number }>;
}

export interface PoolStandingCounts {
  poolId: string;
  holders: number;
  completed: number;
  notStarted: number;
  stalled: number;
  /** The holders not completed by progress, as the digest's spread (spreadBucket): 0 %, 1–49 %, 50–99 %. */
  zero: number;
  low: number;
  high: number;
}

/** Which holders a list holds: a standing, or all not completed (`open`). */
export type ListedStanding = 'completed' | 'not-started' | 'stalled' | 'open';

export interface HolderListQuery {
  standing: ListedStanding;
  /** The pools whose holders are listed, each with its place in the order (a lower place first). */
  pools: ReadonlyMap<string, number>;
  limit: number;
  now: Date;
  thresholds: ProgressThresholds;
}

const BATCH = 400;
/** Rows per multi-row INSERT (14 columns each: far below SQLite's and PostgreSQL's parameter limits). */
const INSERT_ROWS = 200;
type LicenseProgressInsert = Insertable<LicenseProgressTable>;
type ProgressHistoryInsert = Insertable<ProgressHistoryTable>;

function toProgress(r: LicenseProgressRow): LicenseProgress {
  return {
    licenseId: r.license_id,
    poolId: r.pool_id,
    courseId: r.course_id,
    studentId: r.student_id,
    studentEmail: r.student_email,
    studentName: r.student_name,
    progress: Number(r.progress),
    completed: r.completed,
    start: r.license_start,
    end: r.license_end,
    active: Number(r.active) === 1,
    firstSeenAt: r.first_seen_at,
    changedAt: r.changed_at,
    seenAt: r.seen_at,
  };
}

/**
 * A cut-off for text times, as ISO with milliseconds: exact for the times License Desk writes
 * (changed_at, toISOString); a license start written otherwise (no milliseconds) may fall either side
 * within the very second of the cut-off. A date alone (YYYY-MM-DD) sorts before any time of its day.
 */
function cutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}

/** Completed, as isCompleted says: a completion date, or 100 %. */
const completedSql = sql<boolean>`(completed is not null or progress >= 100)`;

/**
 * progressStanding's rule as SQL conditions on license_progress (the cut-offs from `cutoff`): not
 * started is 0 % since the cut-off, stalled is started and unchanged since the cut-off.
 */
function standingSql(standing: ListedStanding, now: Date, thresholds: ProgressThresholds) {
  switch (standing) {
    case 'completed':
      return completedSql;
    case 'open':
      return sql<boolean>`not ${completedSql}`;
    case 'not-started':
      return sql<boolean>`(not ${completedSql} and progress <= 0 and license_start <= ${cutoff(now, thresholds.notStartedDays)})`;
    case 'stalled':
      return sql<boolean>`(not ${completedSql} and progress > 0 and changed_at <= ${cutoff(now, thresholds.stalledDays)})`;
  }
}

/** 1 for each row where `condition` holds, summed. */
const countWhere = (condition: ReturnType<typeof standingSql>) =>
  sql<number>`sum(case when ${condition} then 1 else 0 end)`;

/** The pool's last stored day says transferable. */
function inTransferablePool(eb: ExpressionBuilder<Database, 'license_progress'>) {
  return eb.exists(
    eb
      .selectFrom('pool_usage as pu')
      .select('pu.pool_id')
      .whereRef('pu.pool_id', '=', 'license_progress.pool_id')
      .where('pu.transferable', '=', 1)
      .where((inner) =>
        inner(
          'pu.day',
          '=',
          inner
            .selectFrom('pool_usage as last')
            .select((m) => m.fn.max('last.day').as('day'))
            .whereRef('last.pool_id', '=', 'license_progress.pool_id'),
        ),
      ),
  );
}

function toChange(r: ProgressHistoryRow): ProgressChange {
  return {
    licenseId: r.license_id,
    poolId: r.pool_id,
    studentEmail: r.student_email,
    progress: Number(r.progress),
    completed: r.completed,
    at: r.at,
  };
}

/** A boolean as SQLite (0/1) or PostgreSQL (true/false) answers it. */
const isTrue = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't';

function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export function createProgressStore(records: Pick<Records, 'db' | 'dialect'>): ProgressStore {
  const db: Kysely<Database> = records.db;

  async function recordBatch(batch: readonly ProgressObservation[], iso: string): Promise<RecordOutcome> {
    const out: RecordOutcome = { seen: batch.length, added: 0, changed: 0 };
    await db.transaction().execute(async (trx) => {
      const ids = batch.map((o) => o.licenseId);
      const existing = new Map(
        (await trx.selectFrom('license_progress').selectAll().where('license_id', 'in', ids).execute()).map((r) => [
          r.license_id,
          r,
        ]),
      );
      const unchanged: string[] = [];
      // New licenses and history rows go in as multi-row inserts: one statement to build and run
      // instead of one per row (a first pass sees every license new, and the pass records 100 at a turn).
      const added: LicenseProgressInsert[] = [];
      const history: ProgressHistoryInsert[] = [];
      for (const o of batch) {
        const email = o.studentEmail.toLowerCase();
        const row = existing.get(o.licenseId);
        const change = {
          license_id: o.licenseId,
          pool_id: o.poolId,
          student_email: email,
          progress: o.progress,
          completed: o.completed,
          at: iso,
        };
        if (!row) {
          out.added++;
          added.push({
            license_id: o.licenseId,
            pool_id: o.poolId,
            course_id: o.courseId,
            student_id: o.studentId,
            student_email: email,
            student_name: o.studentName,
            progress: o.progress,
            completed: o.completed,
            license_start: o.start,
            license_end: o.end,
            active: o.active ? 1 : 0,
            first_seen_at: iso,
            changed_at: iso,
            seen_at: iso,
          });
          history.push(change);
          continue;
        }
        const changed = progressChanged({ progress: Number(row.progress), completed: row.completed }, o);
        const sameFacts =
          !changed &&
          Number(row.active) === (o.active ? 1 : 0) &&
          row.license_end === o.end &&
          row.student_name === o.studentName &&
          row.student_email === email;
        if (sameFacts) {
          unchanged.push(o.licenseId);
          continue;
        }
        if (changed) {
          out.changed++;
          history.push(change);
        }
        await trx
          .updateTable('license_progress')
          .set({
            student_email: email,
            student_name: o.studentName,
            progress: o.progress,
            completed: o.completed,
            license_end: o.end,
            active: o.active ? 1 : 0,
            seen_at: iso,
            ...(changed ? { changed_at: iso } : {}),
          })
          .where('license_id', '=', o.licenseId)
          .execute();
      }
      for (let i = 0; i < added.length; i += INSERT_ROWS)
        await trx
          .insertInto('license_progress')
          .values(added.slice(i, i + INSERT_ROWS))
          .execute();
      for (let i = 0; i < history.length; i += INSERT_ROWS)
        await trx
          .insertInto('progress_history')
          .values(history.slice(i, i + INSERT_ROWS))
          .execute();
      if (unchanged.length > 0)
        await trx.updateTable('license_progress').set({ seen_at: iso }).where('license_id', 'in', unchanged).execute();
    });
    return out;
  }

  return {
    async record(observations, at) {
      const iso = at.toISOString();
      const total: RecordOutcome = { seen: 0, added: 0, changed: 0 };
      for (let i = 0; i < observations.length; i += BATCH) {
        const o = await recordBatch(observations.slice(i, i + BATCH), iso);
        total.seen += o.seen;
        total.added += o.added;
        total.changed += o.changed;
      }
      return total;
    },

    async closeUnseen(passStartedAt) {
      const r = await db
        .updateTable('license_progress')
        .set({ active: 0 })
        .where('active', '=', 1)
        .where('seen_at', '<', passStartedAt.toISOString())
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    async markEnded(licenseId) {
      const r = await db
        .updateTable('license_progress')
        .set({ active: 0 })
        .where('license_id', '=', licenseId)
        .where('active', '=', 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async noteLicense(license, at, opts = {}) {
      const active = license.active && !(Date.parse(license.end) <= at.getTime()) ? 1 : 0;
      const iso = at.toISOString();
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('license_progress')
          .select(['active', 'license_end'])
          .where('license_id', '=', license.id)
          .executeTakeFirst();
        if (row) {
          if (Number(row.active) === active && row.license_end === license.end) return 'same';
          await trx
            .updateTable('license_progress')
            .set({ active, license_end: license.end })
            .where('license_id', '=', license.id)
            .execute();
          return 'changed';
        }
        if (!opts.add || active === 0) return 'same';
        const email = license.student.email.toLowerCase();
        await trx
          .insertInto('license_progress')
          .values({
            license_id: license.id,
            pool_id: license.poolId,
            course_id: license.courseId,
            student_id: license.student.id,
            student_email: email,
            student_name: license.student.name,
            progress: 0,
            completed: null,
            license_start: license.start,
            license_end: license.end,
            active,
            first_seen_at: iso,
            changed_at: iso,
            seen_at: iso,
          })
          .execute();
        await trx
          .insertInto('progress_history')
          .values({
            license_id: license.id,
            pool_id: license.poolId,
            student_email: email,
            progress: 0,
            completed: null,
            at: iso,
          })
          .execute();
        return 'added';
      });
    },

    async recordPools(pools, at) {
      const day = dayOf(at);
      let stored = 0;
      await db.transaction().execute(async (trx) => {
        for (const p of pools) {
          const last = await trx
            .selectFrom('pool_usage')
            .selectAll()
            .where('pool_id', '=', p.poolId)
            .orderBy('day', 'desc')
            .limit(1)
            .executeTakeFirst();
          const row = {
            pool_id: p.poolId,
            day,
            licenses: p.licenses,
            assigned: p.assigned,
            available: p.available,
            transferable: p.transferable ? 1 : 0,
            pool_end: p.end,
          };
          const same =
            last !== undefined &&
            Number(last.licenses) === row.licenses &&
            Number(last.assigned) === row.assigned &&
            Number(last.available) === row.available &&
            Number(last.transferable) === row.transferable &&
            last.pool_end === row.pool_end;
          if (same) continue;
          if (last?.day === day) {
            await trx
              .updateTable('pool_usage')
              .set(row)
              .where('pool_id', '=', p.poolId)
              .where('day', '=', day)
              .execute();
          } else {
            await trx.insertInto('pool_usage').values(row).execute();
          }
          stored++;
        }
      });
      return stored;
    },

    async holders(filter = {}) {
      let q = db.selectFrom('license_progress').selectAll();
      if (!filter.includeInactive) q = q.where('active', '=', 1);
      if (filter.poolId !== undefined) q = q.where('pool_id', '=', filter.poolId);
      if (filter.email !== undefined) q = q.where('student_email', '=', filter.email.toLowerCase());
      if (filter.licenseIds !== undefined) {
        if (filter.licenseIds.length === 0) return [];
        const out: LicenseProgress[] = [];
        for (let i = 0; i < filter.licenseIds.length; i += BATCH) {
          const slice = filter.licenseIds.slice(i, i + BATCH);
          for (const r of await q.where('license_id', 'in', slice).execute()) out.push(toProgress(r));
        }
        return out;
      }
      return (await q.orderBy('pool_id').orderBy('license_id').execute()).map(toProgress);
    },

    async historyOf(licenseId) {
      const rows = await db
        .selectFrom('progress_history')
        .selectAll()
        .where('license_id', '=', licenseId)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map(toChange);
    },

    async completedBetween(from, to) {
      // The row where a completion appears: completed set on it, and no earlier row of the license has one.
      const rows = await db
        .selectFrom('progress_history as h')
        .selectAll('h')
        .where('h.at', '>=', from.toISOString())
        .where('h.at', '<', to.toISOString())
        .where((eb) => eb.or([eb('h.completed', 'is not', null), eb('h.progress', '>=', 100)]))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('progress_history as e')
                .select('e.id')
                .whereRef('e.license_id', '=', 'h.license_id')
                .whereRef('e.at', '<', 'h.at')
                .where((eb) => eb.or([eb('e.completed', 'is not', null), eb('e.progress', '>=', 100)])),
            ),
          ),
        )
        .select(({ exists, selectFrom }) =>
          exists(
            selectFrom('progress_history as f')
              .select('f.id')
              .whereRef('f.license_id', '=', 'h.license_id')
              .where((eb) =>
                eb.or([
                  eb('f.at', '<', eb.ref('h.at')),
                  eb.and([eb('f.at', '=', eb.ref('h.at')), eb('f.id', '<', eb.ref('h.id'))]),
                ]),
              ),
          ).as('seen_before'),
        )
        .orderBy('h.at')
        .orderBy('h.id')
        .execute();
      const fromMs = from.getTime();
      const toMs = to.getTime();
      const out: ProgressChange[] = [];
      const counted = new Set<string>();
      for (const r of rows) {
        if (counted.has(r.license_id) || !isCompleted({ progress: Number(r.progress), completed: r.completed }))
          continue;
        // Completed when first seen: only a completion the service dates in the window is the window's.
        if (!isTrue(r.seen_before)) {
          const done = r.completed === null ? Number.NaN : Date.parse(r.completed);
          if (!(done >= fromMs && done < toMs)) continue;
        }
        counted.add(r.license_id);
        out.push(toChange(r));
      }
      return out;
    },

    async poolUsage(since, poolId) {
      const first = dayOf(since);
      // Each pool's last day before the window, in one query (a join on each pool's latest such day).
      let before = db
        .selectFrom('pool_usage')
        .select(['pool_id', (eb) => eb.fn.max('day').as('day')])
        .where('day', '<', first)
        .groupBy('pool_id');
      if (poolId !== undefined) before = before.where('pool_id', '=', poolId);
      const baseline = await db
        .selectFrom('pool_usage as u')
        .innerJoin(before.as('b'), (join) => join.onRef('b.pool_id', '=', 'u.pool_id').onRef('b.day', '=', 'u.day'))
        .selectAll('u')
        .execute();
      let q = db.selectFrom('pool_usage').selectAll().where('day', '>=', first);
      if (poolId !== undefined) q = q.where('pool_id', '=', poolId);
      const inWindow = await q.orderBy('day').orderBy('pool_id').execute();
      const rows = [
        ...baseline.sort((a, b) => a.day.localeCompare(b.day) || a.pool_id.localeCompare(b.pool_id)),
        ...inWindow,
      ];
      return rows.map((r) => ({
        poolId: r.pool_id,
        day: r.day,
        licenses: Number(r.licenses),
        assigned: Number(r.assigned),
        available: Number(r.available),
        transferable: Number(r.transferable) === 1,
        end: r.pool_end,
      }));
    },

    async standingCounts(now, thresholds) {
      const open = standingSql('open', now, thresholds);
      const rows = await db
        .selectFrom('license_progress')
        .where('active', '=', 1)
        .select([
          'pool_id',
          (eb) => eb.fn.countAll().as('holders'),
          countWhere(completedSql).as('completed'),
          countWhere(standingSql('not-started', now, thresholds)).as('not_started'),
          countWhere(standingSql('stalled', now, thresholds)).as('stalled'),
          countWhere(sql`${open} and progress <= 0`).as('zero'),
          countWhere(sql`${open} and progress > 0 and progress < 50`).as('low'),
          countWhere(sql`${open} and progress >= 50`).as('high'),
        ])
        .groupBy('pool_id')
        .orderBy('pool_id')
        .execute();
      return rows.map((r) => ({
        poolId: r.pool_id,
        holders: Number(r.holders),
        completed: Number(r.completed),
        notStarted: Number(r.not_started),
        stalled: Number(r.stalled),
        zero: Number(r.zero),
        low: Number(r.low),
        high: Number(r.high),
      }));
    },

    async listHolders({ standing, pools, limit, now, thresholds }) {
      if (pools.size === 0 || limit <= 0) return [];
      const ids = [...pools.keys()];
      // The pool's place: one CASE over the pools given (a few hundred at most in a digest); the places
      // are whole numbers written as literals, so that PostgreSQL orders them as numbers, not as text.
      const place = sql<number>`case pool_id ${sql.join(
        ids.map((id) => sql`when ${id} then ${sql.lit(Math.trunc(pools.get(id) ?? 0))}`),
        sql` `,
      )} end`;
      // ASCII-only lower case and code-point order on both engines (PostgreSQL's C collation), so that
      // SQLite and PostgreSQL list the same names whatever the server's locale.
      const name =
        records.dialect === 'postgres' ? sql`lower(student_name collate "C") collate "C"` : sql`lower(student_name)`;
      const exact = records.dialect === 'postgres' ? sql`student_name collate "C"` : sql`student_name`;
      const rows = await db
        .selectFrom('license_progress')
        .selectAll()
        .where('active', '=', 1)
        .where('pool_id', 'in', ids)
        .where(standingSql(standing, now, thresholds))
        .orderBy(place)
        .orderBy(name)
        .orderBy(exact)
        .orderBy('license_id')
        .limit(limit)
        .execute();
      return rows.map(toProgress);
    },

    async completedInTransferable(limit) {
      const base = db
        .selectFrom('license_progress')
        .where('active', '=', 1)
        .where(completedSql)
        .where((eb) => inTransferablePool(eb));
      const rows = await base
        .selectAll()
        .orderBy(sql`coalesce(completed, changed_at)`, 'desc')
        .orderBy('license_id')
        .limit(limit)
        .execute();
      const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
      return { rows: rows.map(toProgress), total: Number(total.n) };
    },

    async historyRows() {
      const r = await db
        .selectFrom('progress_history')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
