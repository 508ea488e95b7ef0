/**
 * After the grace (docs/leavers-and-offers.md, "The return"): each leaver's seat in a transferable pool is
 * returned through the ordinary revoke use case (an intent recorded before the DELETE, the audit entry
 * "returned: left the workspace", the freed seat handed to the waitlist's first), once; a seat in an
 * untransferable pool is only listed. The run is a job of the one runner under the one lease, so one
 * replica runs it: a return a killed process left `returning` belongs to no run now, and the next run
 * reads it back (its revoke's intent settled first) instead of sending it again.
 */
import { checkRevoke, revoke } from '../../changes/index.js';
import { APP_ACTOR } from '../../kernel/domain/audit-entry.js';
import type { LeaverHoldRow } from '../db/holds.js';
import type { HeldSeat, LeaverNotice, ReturnEnd } from '../domain/leavers.js';
import type { LeaversContext } from './context.js';

/** Returns sent at most a run (the rest wait for the next run). */
export const RETURNS_PER_RUN = 50;

export interface ReturnRun {
  returned: number;
  listed: number;
  failed: number;
  gone: number;
  later: number;
  /** Returns a killed process left, read back in this run. */
  readBack: number;
}

const seatOf = (r: LeaverHoldRow): HeldSeat => ({
  licenseId: r.license_id,
  poolId: r.pool_id,
  ...(r.course_title ? { courseTitle: r.course_title } : {}),
  transferable: r.transferable === 1,
});

/** One claimed return through the revoke use case, ended in the store. */
async function send(ctx: LeaversContext, row: LeaverHoldRow): Promise<ReturnEnd> {
  const { store } = ctx;
  const outcome = await revoke(ctx.change(), {
    actor: APP_ACTOR,
    licenseId: row.license_id,
    as: { action: 'leaver-returned' },
  });
  if (outcome.kind === 'unread') {
    // Nothing was sent: the next run tries again.
    await store.release(row.license_id);
    return 'later';
  }
  if (outcome.kind === 'blocked') {
    const gone = outcome.blocker === 'inactive' || outcome.blocker === 'expired';
    await store.finish(row.license_id, gone ? 'gone' : 'failed', ctx.now(), `not sent (${outcome.blocker})`);
    return gone ? 'gone' : 'failed';
  }
  const w = outcome.write;
  // The answer was lost and the read-back could not tell: the claim stays, the next run reads it back.
  if (w.kind === 'unknown') return 'later';
  if (w.kind === 'done') {
    await store.finish(row.license_id, 'returned', ctx.now());
    return 'returned';
  }
  await store.finish(row.license_id, 'failed', ctx.now(), 'sentence' in w ? w.sentence : 'not revoked');
  return 'failed';
}

/** A return a killed process left: its revoke's intent settled first, then the license read. */
async function readBack(ctx: LeaversContext, row: LeaverHoldRow): Promise<ReturnEnd> {
  const { store } = ctx;
  const since = row.claimed_at ?? row.since;
  let revokes = await store.revokesSince(row.license_id, since);
  if (revokes.some((r) => r.state === 'open')) {
    await ctx.settle?.().catch(() => undefined);
    revokes = await store.revokesSince(row.license_id, since);
    if (revokes.some((r) => r.state === 'open')) return 'later';
  }
  const check = await checkRevoke(ctx.licensing, row.license_id, ctx.now());
  if (check.kind === 'unread') return 'later';
  if (check.kind === 'blocked' && check.blocker === 'inactive') {
    // Ended by License Desk's own revoke (its audit entry is the settler's or the revoke's), or by someone else.
    const ours = revokes.length > 0;
    await store.finish(
      row.license_id,
      ours ? 'returned' : 'gone',
      ctx.now(),
      ours ? 'read back after a restart' : undefined,
    );
    if (ours && row.transferable === 1) ctx.change().seats?.noticeSeat(row.pool_id);
    return ours ? 'returned' : 'gone';
  }
  return send(ctx, row);
}

/** The alert channel's one post of a run: what was returned, what is only listed, what failed. */
async function post(ctx: LeaversContext, runId: string, seats: Record<'returned' | 'listed' | 'failed', HeldSeat[]>) {
  if (!ctx.channel || seats.returned.length + seats.listed.length + seats.failed.length === 0) return;
  const notice: LeaverNotice = { kind: 'leaver-returns', channel: ctx.channel, ...seats };
  await ctx.store.transaction((tx) => ctx.outbox.enqueue(tx.handle, notice, `leaver-returns:${runId}`));
  ctx.outbox.kick();
}

/** One run: the returns a killed process left read back, then the holds past their grace. */
export async function runReturns(ctx: LeaversContext, runId: string): Promise<ReturnRun> {
  const run: ReturnRun = { returned: 0, listed: 0, failed: 0, gone: 0, later: 0, readBack: 0 };
  const seats: Record<'returned' | 'listed' | 'failed', HeldSeat[]> = { returned: [], listed: [], failed: [] };
  const count = (row: LeaverHoldRow, end: ReturnEnd) => {
    run[end] += 1;
    if (end === 'returned' || end === 'failed') seats[end].push(seatOf(row));
  };
  for (const row of await ctx.store.leftBy(runId)) {
    if (!(await ctx.store.takeOver(row, runId, ctx.now()))) continue;
    const end = await readBack(ctx, row).catch(() => 'later' as const);
    run.readBack += 1;
    count(row, end);
  }
  for (const row of await ctx.store.due(ctx.now(), RETURNS_PER_RUN)) {
    if (row.transferable !== 1) {
      // An untransferable pool never gets the seat back: the admins see it listed.
      if (await ctx.store.finish(row.license_id, 'listed', ctx.now(), 'untransferable pool: only listed')) {
        run.listed += 1;
        seats.listed.push(seatOf(row));
      }
      continue;
    }
    if (!(await ctx.store.claim(row.license_id, runId, ctx.now()))) continue;
    const end = await send(ctx, row).catch((error: unknown) => {
      ctx.logger.warn('leavers: a return did not finish; the next run reads it back', {
        licenseId: row.license_id,
        error: String(error),
      });
      return 'later' as const;
    });
    count(row, end);
  }
  await post(ctx, runId, seats);
  if (run.returned + run.listed + run.failed + run.gone + run.readBack > 0)
    ctx.logger.info('leavers: seats returned after the grace', { ...run });
  return run;
}
