/**
 * The automatic return of finished seats (docs/progress.md), a setting off by default
 * (PROGRESS_RETURN_COMPLETED). After each complete progress pass, License Desk revokes the completed
 * licenses of transferable pools whose completion it first saw at least PROGRESS_RETURN_AFTER_DAYS ago,
 * the oldest completion first, at most PROGRESS_RETURN_MAX a pass, on its own authority.
 *
 * - **Once per license.** Each return is claimed in `progress_returns` (db/returns.ts) before
 *   anything is sent; a license claimed before, by this pass, an earlier one or another replica, is
 *   never picked again. Each return from its claim to its end: auto-return-claims.ts.
 * - **The revoke use case.** Each return is the ordinary revoke (services/revoke.ts): an intent
 *   recorded before the DELETE, audited as License Desk's `auto-returned` ("License Desk returned …
 *   (completed on …, automatic return)"), the freed seat handed to the first waiting request.
 * - **After a kill.** A claim left `returning` runs out and is taken over (`resume`, at start and every
 *   few minutes, and before each run): while the revoke's intent is still open the settler reads it back
 *   first; then the license is read: found inactive after a revoke of License Desk's, it counts as
 *   returned (no second DELETE, no second audit entry: the revoke's own, or the settler's, tells it);
 *   still active, the return goes on through the revoke use case.
 * - **Told once.** The holder's DM is enqueued in the transaction that ends the claim (keyed by the
 *   license), so only the process that ends it tells; the alert channel gets one post a pass, counts only.
 */

import { STALE_INSTANCE_MS } from '../../kernel/services/writes/intents.js';
import { createProgressReturns } from '../db/returns.js';
import type { AutoReturnNotice, ReturnedInPool } from '../domain/auto-return.js';
import { type AutoReturnContext, type AutoReturnOptions, type Ended, resume, send } from './auto-return-claims.js';

export type { AutoReturnOptions } from './auto-return-claims.js';

export interface AutoReturnRun {
  /** Seats returned, by pool. */
  pools: ReturnedInPool[];
  returned: number;
  /** Returns that did not go through (each is audited; the button stays for admins). */
  failed: number;
  /** No longer held when License Desk came to return it (nothing sent). */
  gone: number;
  /** Left for a later pass: the license could not be read, or the answer is not known yet. */
  later: number;
}

export interface AutoReturn {
  /** The work after a complete pass; undefined when the setting is off. */
  afterPass(pass: { startedAt: string }): Promise<AutoReturnRun | undefined>;
  /** Reads back the returns a process that died left claimed; how many were ended. */
  resume(): Promise<number>;
}

export function createAutoReturn(opts: AutoReturnOptions): AutoReturn {
  const claimMs = opts.claimMs ?? 5 * 60_000;
  const ctx: AutoReturnContext = {
    ...opts,
    store: createProgressReturns(opts.records),
    until: (at) => new Date(at.getTime() + claimMs),
    staleMs: opts.staleMs ?? STALE_INSTANCE_MS,
  };
  return { afterPass: (pass) => afterPass(ctx, pass), resume: () => resume(ctx) };
}

/** The work after a complete pass: the due returns claimed and sent, at most `max` a pass, one post. */
async function afterPass(ctx: AutoReturnContext, pass: { startedAt: string }): Promise<AutoReturnRun | undefined> {
  const { store, settings, now } = ctx;
  if (!settings.on) return undefined;
  await resume(ctx);
  // At most `max` a pass, even when the work after it runs twice (a retry, another replica).
  const room = settings.max - (await store.claimedBy(pass.startedAt));
  const due = room > 0 ? await store.due(now(), settings.afterDays, room) : [];
  const run: AutoReturnRun = { pools: [], returned: 0, failed: 0, gone: 0, later: 0 };
  const byPool = new Map<string, ReturnedInPool>();
  for (const c of due) {
    if (!(await store.claim(c, pass.startedAt, now(), ctx.until(now())))) continue;
    const row = {
      license_id: c.licenseId,
      pool_id: c.poolId,
      student_email: c.studentEmail.toLowerCase(),
      completed_on: c.completedOn,
    };
    const { ended, courseTitle } = await send(ctx, row).catch((error: unknown) => {
      // The claim stays `returning`: once it runs out, resume reads it back.
      ctx.logger.warn('automatic return: a return did not finish; it is read back later', {
        licenseId: c.licenseId,
        error: String(error),
      });
      return { ended: 'later' as Ended, courseTitle: undefined };
    });
    run[ended] += 1;
    if (ended === 'returned') {
      const pool = byPool.get(c.poolId) ?? { poolId: c.poolId, ...(courseTitle ? { courseTitle } : {}), count: 0 };
      pool.count += 1;
      byPool.set(c.poolId, pool);
    }
  }
  run.pools = [...byPool.values()].sort((a, b) => b.count - a.count || a.poolId.localeCompare(b.poolId));
  await postRun(ctx, run, pass);
  if (due.length > 0) {
    const { returned, failed, gone, later } = run;
    ctx.logger.info('finished seats returned after the progress pass', {
      due: due.length,
      returned,
      failed,
      gone,
      later,
    });
  }
  return run;
}

/** The alert channel's one post of a pass: counts only. */
async function postRun(ctx: AutoReturnContext, run: AutoReturnRun, pass: { startedAt: string }): Promise<void> {
  if (!ctx.channel || run.returned + run.failed === 0) return;
  const notice: AutoReturnNotice = {
    kind: 'progress-returns',
    channel: ctx.channel,
    pools: run.pools,
    failed: run.failed,
  };
  await ctx.store.transaction((tx) => ctx.outbox.enqueue(tx.handle, notice, `progress-returns:${pass.startedAt}`));
  ctx.outbox.kick();
}
