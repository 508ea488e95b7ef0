/**
 * The reads behind the progress views (docs/progress.md): a page of licenses' progress, App Home's
 * counts per pool and the completed seats that can be given back. Records only: no licensing request.
 */
import type { Records } from '../db/open.js';
import type { LicenseProgress, ProgressThresholds } from '../domain/progress.js';
import type { HomeProgress, ReturnableSeat } from '../domain/progress-views.js';
import { type AskState, type ReclaimRoundSummary, roundFigures } from '../domain/reclaim.js';
import { type PassState, PROGRESS_PASS_KEY } from './progress-pass.js';
import { createProgressStore, type ProgressStore } from './progress-store.js';
import { stateDocument } from './state-records.js';

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

/** Rounds App Home lists: open, or closed within this many days. */
const HOME_ROUNDS_DAYS = 7;
const HOME_ROUNDS = 3;

/** The reclaim rounds still open or closed lately, newest first, with their figures (one grouped count). */
export async function recentRounds(records: Records, now: Date, limit = HOME_ROUNDS): Promise<ReclaimRoundSummary[]> {
  const since = new Date(now.getTime() - HOME_ROUNDS_DAYS * 86_400_000).toISOString();
  const rounds = await records.db
    .selectFrom('reclaim_rounds')
    .selectAll()
    .where((eb) => eb.or([eb('state', '=', 'open'), eb('closed_at', '>=', since)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rounds.length === 0) return [];
  const counts = await records.db
    .selectFrom('reclaim_asks')
    .select(['round_id', 'state', (eb) => eb.fn.countAll().as('n')])
    .where(
      'round_id',
      'in',
      rounds.map((r) => r.id),
    )
    .groupBy(['round_id', 'state'])
    .execute();
  return rounds.map((r) => {
    const of = (state: AskState) => Number(counts.find((c) => c.round_id === r.id && c.state === state)?.n ?? 0);
    return {
      id: r.id,
      ...(r.pool_id ? { poolId: r.pool_id } : {}),
      policy: r.policy === 'release' ? 'release' : 'list',
      closed: r.state === 'closed',
      deadlineAt: r.deadline_at,
      ...roundFigures(of),
      notInSlack: Number(r.not_in_slack),
    };
  });
}

/** App Home's progress: counts per pool, the seats to return, when the last pass ran. */
export async function homeProgress(
  records: Records,
  now: Date,
  thresholds: ProgressThresholds,
  limit = HOME_RETURNABLE,
): Promise<HomeProgress> {
  const store = createProgressStore(records);
  const [standings, returnable, state, rounds] = await Promise.all([
    store.standingCounts(now, thresholds),
    returnableSeats(store, now, limit),
    stateDocument<PassState>(records, PROGRESS_PASS_KEY, { empty: () => ({}), parse: (v) => v as PassState }).read(),
    recentRounds(records, now),
  ]);
  return {
    standings,
    returnable: returnable.seats,
    returnableTotal: returnable.total,
    rounds,
    ...(state.lastPassAt ? { lastPassAt: state.lastPassAt } : {}),
  };
}
