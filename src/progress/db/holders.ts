/**
 * Who holds a seat and where they stand (docs/progress.md): the reads of `license_progress` behind the
 * pool and license views, App Home's counts, the digest's lists and the seats that can be given back.
 */
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../kernel/db/migrations/index.js';
import type { Database, LicenseProgressRow } from '../../kernel/db/schema.js';
import type { LicenseProgress, ProgressThresholds } from '../domain/progress.js';
import { BATCH } from './licenses.js';

export interface HolderFilter {
  poolId?: string;
  licenseIds?: readonly string[];
  /** Lower-case e-mail. */
  email?: string;
  /** Inactive licenses too (default: active only). */
  includeInactive?: boolean;
  /** Holders whose name contains this (case-insensitive), e.g. a person asked for by name. */
  nameContains?: string;
  /** At most this many, by pool then license (not with `licenseIds`). */
  limit?: number;
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

export interface HolderRecords {
  holders(filter?: HolderFilter): Promise<LicenseProgress[]>;
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
  /** The distinct e-mails (lower-case) of the active holders the records know, A–Z: the leaver sweep's list. */
  activeHolderEmails(): Promise<string[]>;
  /**
   * Active licenses whose end day (YYYY-MM-DD) is after `after` and at most `until`: the learners'
   * reminders before a license ends (docs/learners.md), by e-mail then license.
   */
  endingBetween(after: string, until: string): Promise<LicenseProgress[]>;
}

export function holderRecords(db: Kysely<Database>, dialect: Dialect): HolderRecords {
  return {
    ...holderLookups(db),
    async holders(filter = {}) {
      let q = db.selectFrom('license_progress').selectAll();
      if (!filter.includeInactive) q = q.where('active', '=', 1);
      if (filter.poolId !== undefined) q = q.where('pool_id', '=', filter.poolId);
      if (filter.email !== undefined) q = q.where('student_email', '=', filter.email.toLowerCase());
      if (filter.nameContains !== undefined) {
        const words = filter.nameContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
        q = q.where(sql<boolean>`lower(student_name) like ${`%${words}%`} escape '\\'`);
      }
      if (filter.licenseIds !== undefined) {
        if (filter.licenseIds.length === 0) return [];
        const out: LicenseProgress[] = [];
        for (let i = 0; i < filter.licenseIds.length; i += BATCH) {
          const slice = filter.licenseIds.slice(i, i + BATCH);
          for (const r of await q.where('license_id', 'in', slice).execute()) out.push(toProgress(r));
        }
        return out;
      }
      const ordered = q.orderBy('pool_id').orderBy('license_id');
      return (await (filter.limit !== undefined ? ordered.limit(filter.limit) : ordered).execute()).map(toProgress);
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
      const name = dialect === 'postgres' ? sql`lower(student_name collate "C") collate "C"` : sql`lower(student_name)`;
      const exact = dialect === 'postgres' ? sql`student_name collate "C"` : sql`student_name`;
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
  };
}

/** Who holds what, for the features that reach people (leavers' sweep, learners' reminders). */
function holderLookups(db: Kysely<Database>): Pick<HolderRecords, 'activeHolderEmails' | 'endingBetween'> {
  return {
    async activeHolderEmails() {
      const rows = await db
        .selectFrom('license_progress')
        .select('student_email')
        .distinct()
        .where('active', '=', 1)
        .orderBy('student_email')
        .execute();
      return rows.map((r) => r.student_email);
    },
    async endingBetween(after, until) {
      const day = sql<string>`substr(license_end, 1, 10)`;
      const rows = await db
        .selectFrom('license_progress')
        .selectAll()
        .where('active', '=', 1)
        .where(day, '>', after)
        .where(day, '<=', until)
        .orderBy('student_email')
        .orderBy('license_id')
        .execute();
      return rows.map(toProgress);
    },
  };
}

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
