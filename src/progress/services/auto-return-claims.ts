/**
 * One automatic return, from its claim to its end (docs/progress.md, "Automatic return"): sent through
 * the revoke use case, ended once (the holder told in the same transaction, keyed), and read back when
 * the process that claimed it died.
 */
import { checkRevoke, revoke, type SeatReturnJobOptions } from '../../changes/index.js';
import type { ProgressReturnRow } from '../../kernel/db/schema.js';
import { APP_ACTOR } from '../../kernel/domain/audit-entry.js';
import { dayOf } from '../../kernel/domain/end-date.js';
import type { ProgressReturns } from '../db/returns.js';
import type { AutoReturnNotice, AutoReturnSettings } from '../domain/auto-return.js';

/**
 * The seat-return job's options (`settle` is called when a return is taken over from a process that
 * died with its DELETE's intent open, so the read-back need not wait for the settler's next minute).
 */
export interface AutoReturnOptions extends SeatReturnJobOptions {
  settings: AutoReturnSettings;
  /** How long a return is one process's before another may read it back (default 5 minutes). */
  claimMs?: number;
  /** PostgreSQL: a process silent this long is gone (default: the settler's, 45 s). */
  staleMs?: number;
}

/** The options with the feature's returns store: what each step of a return is given. */
export interface AutoReturnContext extends AutoReturnOptions {
  store: ProgressReturns;
  /** Until when a claim made at `at` is this process's. */
  until(at: Date): Date;
  staleMs: number;
}

export type Ended = 'returned' | 'failed' | 'gone' | 'later';

type ClaimFacts = Pick<ProgressReturnRow, 'license_id' | 'pool_id' | 'student_email' | 'completed_on'>;

/** Ends the claim; a returned seat's holder is told in the same transaction (once: keyed). */
async function end(
  ctx: AutoReturnContext,
  row: ClaimFacts,
  state: 'returned' | 'failed' | 'gone',
  facts: { courseTitle?: string | undefined; detail?: string },
): Promise<void> {
  const courseTitle = facts.courseTitle ? { courseTitle: facts.courseTitle } : {};
  const detail = facts.detail ? { detail: facts.detail } : {};
  const told = await ctx.store.transaction(async (tx) => {
    const mine = await tx.finish(row.license_id, state, ctx.now(), { ...courseTitle, ...detail });
    if (!mine || state !== 'returned') return false;
    // The day is the service's completion date only when it sent one (and that is the day kept);
    // otherwise it is the day the progress pass first saw 100 %, and the holder is told so.
    const completed = await tx.completionOf(row.license_id);
    const fromService = !!completed && dayOf(completed) === row.completed_on;
    const notice: AutoReturnNotice = {
      kind: 'progress-returned',
      email: row.student_email,
      licenseId: row.license_id,
      poolId: row.pool_id,
      ...courseTitle,
      completedOn: row.completed_on,
      ...(fromService ? {} : { completionSeen: true }),
    };
    await ctx.outbox.enqueue(tx.handle, notice, `progress-return:${row.license_id}`);
    return true;
  });
  if (told) ctx.outbox.kick();
}

/** One claimed return through the revoke use case. */
export async function send(
  ctx: AutoReturnContext,
  row: ClaimFacts,
): Promise<{ ended: Ended; poolId: string; courseTitle?: string }> {
  const outcome = await revoke(ctx.change(), {
    actor: APP_ACTOR,
    licenseId: row.license_id,
    as: { action: 'auto-returned', completedOn: row.completed_on },
  });
  const courseTitle = outcome.kind === 'written' ? outcome.pool?.course.title : undefined;
  const told = { poolId: row.pool_id, ...(courseTitle ? { courseTitle } : {}) };
  if (outcome.kind === 'unread') {
    // Nothing was sent: the claim is given up and a later pass picks the license again.
    await ctx.store.drop(row.license_id);
    return { ended: 'later', ...told };
  }
  if (outcome.kind === 'blocked') {
    const gone = outcome.blocker === 'inactive';
    const detail = gone ? 'no longer held; nothing sent' : `cannot be revoked (${outcome.blocker})`;
    await end(ctx, row, gone ? 'gone' : 'failed', { detail });
    return { ended: gone ? 'gone' : 'failed', ...told };
  }
  const w = outcome.write;
  // The answer was lost and could not be read back: the claim stays, resume reads it back later.
  if (w.kind === 'unknown') return { ended: 'later', ...told };
  if (w.kind === 'done') {
    await end(ctx, row, 'returned', { courseTitle });
    return { ended: 'returned', ...told };
  }
  const detail = 'sentence' in w ? w.sentence : 'the licensing service did not revoke it';
  await end(ctx, row, 'failed', { courseTitle, detail });
  return { ended: 'failed', ...told };
}

/** A claim a process that died left: read back, then ended or sent. */
async function resumeOne(ctx: AutoReturnContext, row: ProgressReturnRow): Promise<Ended> {
  const intents = await ctx.store.revokesSince(row.license_id, row.claimed_at);
  // The revoke's intent is settled first (the settler reads it back and audits it).
  if (intents.some((i) => i.state === 'open')) return 'later';
  const check = await checkRevoke(ctx.licensing, row.license_id, ctx.now());
  if (check.kind === 'unread') return 'later';
  if (check.kind === 'blocked' && check.blocker === 'inactive') {
    if (intents.length === 0) {
      // No revoke of License Desk's was ever recorded: someone else ended it.
      await end(ctx, row, 'gone', { detail: 'no longer held; nothing sent' });
      return 'gone';
    }
    await end(ctx, row, 'returned', { courseTitle: check.pool?.course.title });
    ctx.change().seats?.noticeSeat(row.pool_id);
    return 'returned';
  }
  return (await send(ctx, row)).ended;
}

/**
 * Claims still running whose process died mid-return: the newest revoke License Desk recorded for
 * the claim belongs to a process that is gone (on PostgreSQL, silent for `staleMs`; on SQLite, any
 * other process, as there is one). Taken over now, by a conditional update, instead of waiting for
 * the claim to run out; a claim with no revoke recorded yet sent nothing and waits for that.
 */
async function takeOverAbandoned(ctx: AutoReturnContext): Promise<{ rows: ProgressReturnRow[]; open: boolean }> {
  const { records, store } = ctx;
  const at = ctx.now();
  const running = await store.running(at);
  if (running.length === 0) return { rows: [], open: false };
  const alive =
    records.dialect === 'sqlite'
      ? new Set([records.instance])
      : await store.seenSince(new Date(at.getTime() - ctx.staleMs));
  const rows: ProgressReturnRow[] = [];
  let open = false;
  for (const row of running) {
    const [last] = await store.revokesSince(row.license_id, row.claimed_at);
    if (!last || last.instance === records.instance || alive.has(last.instance)) continue;
    if (!(await store.takeOverOne(row, ctx.until(at)))) continue;
    rows.push({ ...row, claimed_until: ctx.until(at).toISOString() });
    if (last.state === 'open') open = true;
  }
  return { rows, open };
}

/** Reads back the returns a process that died left claimed; how many were ended. */
export async function resume(ctx: AutoReturnContext): Promise<number> {
  const abandoned = await takeOverAbandoned(ctx);
  // Their DELETE's intent is read back first (the settler audits it), then the claim goes on below.
  if (abandoned.open) await ctx.settle?.().catch(() => undefined);
  const rows = [...abandoned.rows, ...(await ctx.store.takeOver(ctx.now(), ctx.until(ctx.now())))];
  let ended = 0;
  for (const row of rows) {
    try {
      const r = await resumeOne(ctx, row);
      if (r !== 'later') ended++;
      ctx.logger.info('automatic return read back after a restart', { licenseId: row.license_id, result: r });
    } catch (error) {
      ctx.logger.warn('automatic return: the read-back failed; trying again later', {
        licenseId: row.license_id,
        error: String(error),
      });
    }
  }
  return ended;
}
