/** The reclaim rounds App Home lists for admins, with their figures (no names). */
import type { Records } from '../../kernel/db/open.js';
import { type AskState, type ReclaimRoundSummary, roundFigures } from '../domain/reclaim.js';

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
