/**
 * What each license was last seen at (`license_progress`) and one history row per change
 * (`progress_history`), as the daily pass and License Desk's own changes write them (docs/progress.md).
 */
import type { Insertable, Kysely } from 'kysely';
import type {
  Database,
  LicenseProgressRow,
  LicenseProgressTable,
  ProgressHistoryTable,
} from '../../kernel/db/schema.js';
import type { License } from '../../kernel/domain/types.js';
import { type ProgressObservation, progressChanged } from '../domain/progress.js';

export interface RecordOutcome {
  /** Observations stored. */
  seen: number;
  /** Licenses seen for the first time (each got its first history row). */
  added: number;
  /** Licenses whose progress or completion changed (each got a history row). */
  changed: number;
}

export interface LicenseRecords {
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
}

/** Observations recorded in one transaction. */
export const BATCH = 400;
/** Rows per multi-row INSERT (14 columns each: far below SQLite's and PostgreSQL's parameter limits). */
const INSERT_ROWS = 200;
type LicenseProgressInsert = Insertable<LicenseProgressTable>;
type ProgressHistoryInsert = Insertable<ProgressHistoryTable>;

export function licenseRecords(db: Kysely<Database>): LicenseRecords {
  return {
    async record(observations, at) {
      const iso = at.toISOString();
      const total: RecordOutcome = { seen: 0, added: 0, changed: 0 };
      for (let i = 0; i < observations.length; i += BATCH) {
        const o = await recordBatch(db, observations.slice(i, i + BATCH), iso);
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

    noteLicense: (license, at, opts = {}) => noteLicense(db, license, at, opts.add === true),
  };
}

/** What one batch changes: rows to add, history rows, rows to update, and rows only seen again. */
interface BatchPlan extends RecordOutcome {
  inserts: LicenseProgressInsert[];
  history: ProgressHistoryInsert[];
  updates: { licenseId: string; set: Partial<LicenseProgressInsert> }[];
  unchanged: string[];
}

/** Sorts a batch's observations against the rows stored: new, changed, other facts changed, or the same. */
function planBatch(
  batch: readonly ProgressObservation[],
  existing: Map<string, LicenseProgressRow>,
  iso: string,
): BatchPlan {
  const plan: BatchPlan = {
    seen: batch.length,
    added: 0,
    changed: 0,
    inserts: [],
    history: [],
    updates: [],
    unchanged: [],
  };
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
    const active = o.active ? 1 : 0;
    if (!row) {
      plan.added++;
      plan.inserts.push({
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
        active,
        first_seen_at: iso,
        changed_at: iso,
        seen_at: iso,
      });
      plan.history.push(change);
      continue;
    }
    const changed = progressChanged({ progress: Number(row.progress), completed: row.completed }, o);
    const sameFacts =
      !changed &&
      Number(row.active) === active &&
      row.license_end === o.end &&
      row.student_name === o.studentName &&
      row.student_email === email;
    if (sameFacts) {
      plan.unchanged.push(o.licenseId);
      continue;
    }
    if (changed) {
      plan.changed++;
      plan.history.push(change);
    }
    plan.updates.push({
      licenseId: o.licenseId,
      set: {
        student_email: email,
        student_name: o.studentName,
        progress: o.progress,
        completed: o.completed,
        license_end: o.end,
        active,
        seen_at: iso,
        ...(changed ? { changed_at: iso } : {}),
      },
    });
  }
  return plan;
}

/**
 * One batch in one transaction. New licenses and history rows go in as multi-row inserts: one
 * statement to build and run instead of one per row (a first pass sees every license new, and the
 * pass records 100 at a turn).
 */
async function recordBatch(
  db: Kysely<Database>,
  batch: readonly ProgressObservation[],
  iso: string,
): Promise<RecordOutcome> {
  return db.transaction().execute(async (trx) => {
    const ids = batch.map((o) => o.licenseId);
    const rows = await trx.selectFrom('license_progress').selectAll().where('license_id', 'in', ids).execute();
    const plan = planBatch(batch, new Map(rows.map((r) => [r.license_id, r])), iso);
    for (const u of plan.updates)
      await trx.updateTable('license_progress').set(u.set).where('license_id', '=', u.licenseId).execute();
    for (let i = 0; i < plan.inserts.length; i += INSERT_ROWS)
      await trx
        .insertInto('license_progress')
        .values(plan.inserts.slice(i, i + INSERT_ROWS))
        .execute();
    for (let i = 0; i < plan.history.length; i += INSERT_ROWS)
      await trx
        .insertInto('progress_history')
        .values(plan.history.slice(i, i + INSERT_ROWS))
        .execute();
    if (plan.unchanged.length > 0)
      await trx
        .updateTable('license_progress')
        .set({ seen_at: iso })
        .where('license_id', 'in', plan.unchanged)
        .execute();
    return { seen: plan.seen, added: plan.added, changed: plan.changed };
  });
}

async function noteLicense(
  db: Kysely<Database>,
  license: License,
  at: Date,
  add: boolean,
): Promise<'added' | 'changed' | 'same'> {
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
    if (!add || active === 0) return 'same';
    const email = license.student.email.toLowerCase();
    const first = {
      license_id: license.id,
      pool_id: license.poolId,
      student_email: email,
      progress: 0,
      completed: null,
    };
    await trx
      .insertInto('license_progress')
      .values({
        ...first,
        course_id: license.courseId,
        student_id: license.student.id,
        student_name: license.student.name,
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
      .values({ ...first, at: iso })
      .execute();
    return 'added';
  });
}
