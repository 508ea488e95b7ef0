/**
 * The reads behind the progress views (docs/progress.md): a page of licenses' progress, App Home's
 * counts per pool and the completed seats that can be given back. Records only: no licensing request.
 */
import type { Records } from '../../kernel/db/open.js';
import { stateDocument } from '../../kernel/services/state-records.js';
import { createProgressStore, type ProgressStore } from '../db/store.js';
import type { LicenseProgress, ProgressThresholds } from '../domain/progress.js';
import type { HomeProgress, ReturnableSeat } from '../domain/progress-views.js';
import { type PassState, PROGRESS_PASS_KEY } from './progress-pass.js';

export type { HomeProgress, ReturnableSeat };

/** Seats App Home offers to return at most (the rest are counted). */
export const HOME_RETURNABLE = 5;

/** What the pass knows of these licenses, by id (inactive ones included: the caller decides). */
export async function progressOf(
  records: Pick<Records, 'db' | 'dialect'>,
  licenseIds: readonly string[],
): Promise<Map<string, LicenseProgress>> {
  const rows = await createProgressStore(records).holders({ licenseIds, includeInactive: true });
  return new Map(rows.map((r) => [r.licenseId, r]));
}

/**
 * Completed licenses of transferable pools, still held: revoking one gives its seat back. The most
 * recent completions first, at most `limit`, with how many there are in all. For App Home and the
 * weekly digest.
 */
export async function returnableSeats(
  store: ProgressStore,
  _now: Date,
  limit = HOME_RETURNABLE,
): Promise<{ seats: ReturnableSeat[]; total: number }> {
  const { rows, total } = await store.completedInTransferable(limit);
  return {
    seats: rows.map((r) => ({
      licenseId: r.licenseId,
      poolId: r.poolId,
      studentName: r.studentName,
      studentEmail: r.studentEmail,
      completedAt: r.completed ?? r.changedAt,
    })),
    total,
  };
}

/** App Home's progress: counts per pool, the seats to return, when the last pass ran. */
export async function homeProgress(
  records: Records,
  now: Date,
  thresholds: ProgressThresholds,
  limit = HOME_RETURNABLE,
): Promise<HomeProgress> {
  const store = createProgressStore(records);
  const [standings, returnable, state] = await Promise.all([
    store.standingCounts(now, thresholds),
    returnableSeats(store, now, limit),
    stateDocument<PassState>(records, PROGRESS_PASS_KEY, { empty: () => ({}), parse: (v) => v as PassState }).read(),
  ]);
  return {
    standings,
    returnable: returnable.seats,
    returnableTotal: returnable.total,
    ...(state.lastPassAt ? { lastPassAt: state.lastPassAt } : {}),
  };
}
