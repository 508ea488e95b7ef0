/**
 * Starting a round (docs/reclaim.md, "Start"): the preview's holders asked, the round and its asks
 * written in one transaction with each holder's DM through the outbox (keyed), and one open round per
 * pool held by the database whichever replica runs it.
 */
import type { ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import { daysSince, progressSince } from '../../progress/index.js';
import type { ReclaimStore } from '../db/store.js';
import {
  type ReclaimCandidate,
  type ReclaimOpenRound,
  type ReclaimPolicy,
  type ReclaimPreview,
  roundTimes,
} from '../domain/reclaim.js';
import { askNotice, enqueue, type LookupUser, newId, type ReclaimContext } from './reclaim-context.js';
import { preview } from './reclaim-preview.js';

export type ReclaimStartOutcome =
  | Exclude<ReclaimPreview, { kind: 'preview' }>
  | { kind: 'nobody' }
  /** One open round per pool: the pool (or, for every pool, each pool that had someone to ask) has one. */
  | { kind: 'already-open'; rounds: ReclaimOpenRound[] }
  | { kind: 'started'; roundId: string; asked: number; notInSlack: number; deadlineAt: string };

/** Thrown inside a round's transaction when another round claimed one of its pools first: rolls it back. */
class PoolTaken extends Error {}

export async function start(
  ctx: ReclaimContext,
  admin: string,
  poolId: string | undefined,
  policy: ReclaimPolicy,
  lookup: LookupUser,
): Promise<ReclaimStartOutcome> {
  if (poolId !== undefined) {
    const open = (await ctx.store.openRounds()).get(poolId);
    if (open) return { kind: 'already-open', rounds: [open] };
  }
  const p = await preview(ctx, poolId, lookup);
  if (p.kind !== 'preview') return p;
  return startPreviewed(ctx, admin, poolId, policy, p);
}

/**
 * Starts the round a preview showed, asking exactly its holders (a round held for a second admin
 * starts from the preview it was approved on). With `roundId` (a held round's), once only: a round
 * already recorded under that id is not started again.
 */
export async function startPreviewed(
  ctx: ReclaimContext,
  admin: string,
  poolId: string | undefined,
  policy: ReclaimPolicy,
  p: Extract<ReclaimPreview, { kind: 'preview' }>,
  roundId?: string,
): Promise<ReclaimStartOutcome> {
  if (roundId) {
    const done = await ctx.store.round(roundId);
    if (done)
      return { kind: 'started', roundId, asked: 0, notInSlack: done.not_in_slack, deadlineAt: done.deadline_at };
  }
  const ask = p.pools.flatMap((x) => x.ask);
  const notInSlack = p.pools.reduce((n, x) => n + x.notInSlack.length, 0);
  if (ask.length === 0) {
    const open = p.pools.flatMap((x) => (x.openRound ? [x.openRound] : []));
    return open.length > 0 ? { kind: 'already-open', rounds: open } : { kind: 'nobody' };
  }
  const round = { ...roundRow(ctx, admin, poolId, policy, notInSlack), ...(roundId ? { id: roundId } : {}) };
  const pools = [...new Set(ask.map((c) => c.poolId))];
  try {
    await ctx.store.transaction(async (tx) => {
      // The first claim of a pool wins; a second is refused and this whole transaction rolls back.
      if (!(await tx.claimPools(round.id, pools))) throw new PoolTaken();
      await tx.insertRound(round);
      for (const c of ask) await askOne(ctx, tx, round, c);
      await enqueue(tx, ctx, { kind: 'reclaim-round', roundId: round.id }, `reclaim:${round.id}:posted`);
    });
  } catch (error) {
    if (!(error instanceof PoolTaken)) throw error;
    // Another Start (another admin, a second click, another replica) claimed a pool first.
    const open = await ctx.store.openRounds();
    ctx.logger.info('reclaim round not started: a round is already open for its pool', { admin, poolId });
    return { kind: 'already-open', rounds: pools.flatMap((id) => open.get(id) ?? []) };
  }
  ctx.outbox.kick();
  const asked = ask.length;
  ctx.logger.info('reclaim round started', { roundId: round.id, admin, asked, notInSlack, policy });
  return { kind: 'started', roundId: round.id, asked, notInSlack, deadlineAt: round.deadline_at };
}

/** One holder to ask on their own (a seat reached through a waitlist offer, never started). */
export interface OneHolder {
  licenseId: string;
  poolId: string;
  courseTitle: string;
  slackUser: string;
  /** Who gets the round's message: the approver of the request that reached the seat. */
  admin: string;
}

/**
 * A reclaim round of one (docs/leavers-and-offers.md#seats-offered-then-claimed): the holder is asked as any round asks (the same ask, DM,
 * Keep and Release, reminder and deadline), when the progress records still show them at 0 %. The
 * round claims no pool, so an admin's own round of the pool is not held up by it. 'started': nothing
 * to ask (progress shown, or already asked in an open round); 'not-now': no progress record yet.
 */
export async function startOne(
  ctx: ReclaimContext,
  holder: OneHolder,
  policy: ReclaimPolicy,
): Promise<'asked' | 'started' | 'not-now'> {
  const h = (await ctx.progress.holders({ poolId: holder.poolId })).find((x) => x.licenseId === holder.licenseId);
  if (!h) return 'not-now';
  if (h.progress > 0 || (await ctx.store.askedInOpenRounds()).has(holder.licenseId)) return 'started';
  const at = ctx.now();
  const s = progressSince(h);
  const candidate: ReclaimCandidate = {
    licenseId: h.licenseId,
    poolId: holder.poolId,
    courseTitle: holder.courseTitle,
    studentEmail: h.studentEmail,
    studentName: h.studentName,
    standing: 'not-started',
    progress: h.progress,
    since: s.at,
    watched: s.watched,
    daysHeld: daysSince(h.start, at),
    slackUser: holder.slackUser,
  };
  const round = roundRow(ctx, holder.admin, holder.poolId, policy, 0);
  await ctx.store.transaction(async (tx) => {
    await tx.insertRound(round);
    await askOne(ctx, tx, round, candidate);
    await enqueue(tx, ctx, { kind: 'reclaim-round', roundId: round.id }, `reclaim:${round.id}:posted`);
  });
  ctx.outbox.kick();
  ctx.logger.info('reclaim round of one started', { roundId: round.id, licenseId: holder.licenseId });
  return 'asked';
}

function roundRow(
  ctx: ReclaimContext,
  admin: string,
  poolId: string | undefined,
  policy: ReclaimPolicy,
  notInSlack: number,
): ReclaimRoundRow {
  const at = ctx.now();
  const { remindAt, deadlineAt } = roundTimes(at, ctx.settings);
  return {
    id: newId('rr'),
    admin,
    pool_id: poolId ?? null,
    policy,
    state: 'open',
    created_at: at.toISOString(),
    remind_at: remindAt,
    deadline_at: deadlineAt,
    not_in_slack: notInSlack,
    message_channel: null,
    message_ts: null,
    claimed_until: null,
    closed_at: null,
  };
}

/** One holder's ask, and their DM in the same transaction. */
async function askOne(ctx: ReclaimContext, tx: ReclaimStore, round: ReclaimRoundRow, c: ReclaimCandidate) {
  const row: ReclaimAskRow = {
    id: newId('ra'),
    round_id: round.id,
    license_id: c.licenseId,
    pool_id: c.poolId,
    course_title: c.courseTitle,
    slack_user: c.slackUser ?? '',
    student_email: c.studentEmail.toLowerCase(),
    student_name: c.studentName,
    standing: c.standing,
    progress: c.progress,
    since: c.since,
    since_watched: c.watched ? 1 : 0,
    state: 'asked',
    answered_at: null,
    reminded_at: null,
    detail: null,
  };
  await tx.insertAsk(row);
  const ask = askNotice(row, round.deadline_at);
  await enqueue(tx, ctx, { kind: 'reclaim-ask', user: row.slack_user, ask }, `reclaim:${row.id}:ask`);
}
