/**
 * Progress over time (docs/progress.md): one history row per change of a license (`progress_history`,
 * never one per day), and each pool's seats per day they changed (`pool_usage`). Read by the license
 * view, the digest's completions and the pools' usage over time.
 */
import type { Kysely } from 'kysely';
import type { Database, ProgressHistoryRow } from '../../kernel/db/schema.js';
import { isCompleted } from '../domain/progress.js';

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

export interface HistoryRecords {
  /** Stores each pool's seats for the day of `at` when they differ from the last day stored. */
  recordPools(pools: readonly PoolSeats[], at: Date): Promise<number>;
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
}

export function historyRecords(db: Kysely<Database>): HistoryRecords {
  return {
    recordPools: (pools, at) => recordPools(db, pools, at),
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

    completedBetween: (from, to) => completedBetween(db, from, to),
    poolUsage: (since, poolId) => poolUsage(db, since, poolId),
    async historyRows() {
      const r = await db
        .selectFrom('progress_history')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

async function recordPools(db: Kysely<Database>, pools: readonly PoolSeats[], at: Date): Promise<number> {
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
        await trx.updateTable('pool_usage').set(row).where('pool_id', '=', p.poolId).where('day', '=', day).execute();
      } else {
        await trx.insertInto('pool_usage').values(row).execute();
      }
      stored++;
    }
  });
  return stored;
}

async function completedBetween(db: Kysely<Database>, from: Date, to: Date): Promise<ProgressChange[]> {
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
    if (counted.has(r.license_id) || !isCompleted({ progress: Number(r.progress), completed: r.completed })) continue;
    // Completed when first seen: only a completion the service dates in the window is the window's.
    if (!isTrue(r.seen_before)) {
      const done = r.completed === null ? Number.NaN : Date.parse(r.completed);
      if (!(done >= fromMs && done < toMs)) continue;
    }
    counted.add(r.license_id);
    out.push(toChange(r));
  }
  return out;
}

async function poolUsage(db: Kysely<Database>, since: Date, poolId?: string): Promise<PoolUsageDay[]> {
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
