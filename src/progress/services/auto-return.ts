/**
 * The automatic return of finished seats (docs/progress.md), a setting off by default
 * (PROGRESS_RETURN_COMPLETED). After each complete progress pass, License Desk revokes the completed
 * licenses of transferable pools whose completion it first saw at least PROGRESS_RETURN_AFTER_DAYS ago,
 * the oldest completion first, at most PROGRESS_RETURN_MAX a pass, on its own authority.
 *
 * - **Once per license.** Each return is claimed in `progress_returns` (services/progress-returns.ts)
 *   before anything is sent; a license claimed before, by this pass, an earlier one or another
 *   replica, is never picked again.
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

import { type ChangeContext, checkRevoke, revoke } from '../../changes/index.js';
import type { Records } from '../../kernel/db/open.js';
import type { ProgressReturnRow } from '../../kernel/db/schema.js';
import { APP_ACTOR } from '../../kernel/domain/audit-entry.js';
import { dayOf } from '../../kernel/domain/end-date.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { STALE_INSTANCE_MS } from '../../kernel/services/intents.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { AutoReturnNotice, AutoReturnSettings, ReturnedInPool } from '../domain/auto-return.js';
import { createProgressReturns, type ProgressReturns, type ReturnCandidate } from './progress-returns.js';

export interface AutoReturnOptions {
  records: Records;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The change context of the revoke use case (audit trail, intents, waitlist hand-on). */
  change: () => ChangeContext;
  now: () => Date;
  settings: AutoReturnSettings;
  /** The alert channel for the pass's one post; unset: no post. */
  channel?: string | undefined;
  logger: Logger;
  /** How long a return is one process's before another may read it back (default 5 minutes). */
  claimMs?: number;
  /**
   * Settles the writes in flight of processes that are gone (the settler's round): called when a return
   * is taken over from a process that died with its DELETE's intent open, so the read-back need not
   * wait for the settler's next minute.
   */
  settle?: () => Promise<unknown>;
  /** PostgreSQL: a process silent this long is gone (default: the settler's, 45 s). */
  staleMs?: number;
}

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

type Ended = 'returned' | 'failed' | 'gone' | 'later';

export function createAutoReturn(opts: AutoReturnOptions): AutoReturn {
  const { records, licensing, outbox, now, settings, logger } = opts;
  const db = records.db;
  const store: ProgressReturns = createProgressReturns(records);
  const claimMs = opts.claimMs ?? 5 * 60_000;
  const staleMs = opts.staleMs ?? STALE_INSTANCE_MS;
  const until = (at: Date) => new Date(at.getTime() + claimMs);

  /** Ends the claim; a returned seat's holder is told in the same transaction (once: keyed). */
  async function end(
    row: Pick<ProgressReturnRow, 'license_id' | 'pool_id' | 'student_email' | 'completed_on'>,
    state: 'returned' | 'failed' | 'gone',
    facts: { courseTitle?: string | undefined; detail?: string },
  ): Promise<void> {
    const courseTitle = facts.courseTitle ? { courseTitle: facts.courseTitle } : {};
    const told = await db.transaction().execute(async (trx) => {
      const mine = await store.finish(trx, row.license_id, state, now(), {
        ...courseTitle,
        ...(facts.detail ? { detail: facts.detail } : {}),
      });
      if (!mine || state !== 'returned') return false;
      // The day is the service's completion date only when it sent one (and that is the day kept);
      // otherwise it is the day the progress pass first saw 100 %, and the holder is told so.
      const progress = await trx
        .selectFrom('license_progress')
        .select('completed')
        .where('license_id', '=', row.license_id)
        .executeTakeFirst();
      const fromService = !!progress?.completed && dayOf(progress.completed) === row.completed_on;
      const notice: AutoReturnNotice = {
        kind: 'progress-returned',
        email: row.student_email,
        licenseId: row.license_id,
        poolId: row.pool_id,
        ...courseTitle,
        completedOn: row.completed_on,
        ...(fromService ? {} : { completionSeen: true }),
      };
      await outbox.enqueue(trx, notice, `progress-return:${row.license_id}`);
      return true;
    });
    if (told) outbox.kick();
  }

  /** One claimed return through the revoke use case. */
  async function send(row: Pick<ProgressReturnRow, 'license_id' | 'pool_id' | 'student_email' | 'completed_on'>) {
    const outcome = await revoke(opts.change(), {
      actor: APP_ACTOR,
      licenseId: row.license_id,
      as: { action: 'auto-returned', completedOn: row.completed_on },
    });
    let ended: Ended;
    const courseTitle = outcome.kind === 'written' ? outcome.pool?.course.title : undefined;
    switch (outcome.kind) {
      case 'unread':
        // Nothing was sent: the claim is given up and a later pass picks the license again.
        await store.drop(row.license_id);
        ended = 'later';
        break;
      case 'blocked':
        if (outcome.blocker === 'inactive') {
          await end(row, 'gone', { detail: 'no longer held; nothing sent' });
          ended = 'gone';
        } else {
          await end(row, 'failed', { detail: `cannot be revoked (${outcome.blocker})` });
          ended = 'failed';
        }
        break;
      case 'written': {
        const w = outcome.write;
        if (w.kind === 'done') {
          await end(row, 'returned', { courseTitle });
          ended = 'returned';
        } else if (w.kind === 'unknown') {
          // The answer was lost and could not be read back: the claim stays, resume reads it back later.
          ended = 'later';
        } else {
          const detail = 'sentence' in w ? w.sentence : 'the licensing service did not revoke it';
          await end(row, 'failed', { courseTitle, detail });
          ended = 'failed';
        }
        break;
      }
    }
    return { ended, poolId: row.pool_id, ...(courseTitle ? { courseTitle } : {}) };
  }

  /** A claim a process that died left: read back, then ended or sent. */
  async function resumeOne(row: ProgressReturnRow): Promise<Ended> {
    const intents = await db
      .selectFrom('intents')
      .select(['state', 'body'])
      .where('subject', '=', row.license_id)
      .where('kind', '=', 'revoke')
      .where('owner', '=', APP_ACTOR)
      .where('created_at', '>=', row.claimed_at)
      .orderBy('created_at', 'desc')
      .execute();
    // The revoke's intent is settled first (the settler reads it back and audits it).
    if (intents.some((i) => i.state === 'open')) return 'later';
    const check = await checkRevoke(licensing, row.license_id, now());
    if (check.kind === 'unread') return 'later';
    if (check.kind === 'blocked' && check.blocker === 'inactive') {
      if (intents.length === 0) {
        // No revoke of License Desk's was ever recorded: someone else ended it.
        await end(row, 'gone', { detail: 'no longer held; nothing sent' });
        return 'gone';
      }
      await end(row, 'returned', { courseTitle: check.pool?.course.title });
      opts.change().seats?.noticeSeat(row.pool_id);
      return 'returned';
    }
    return (await send(row)).ended;
  }

  /**
   * Claims still running whose process died mid-return: the newest revoke License Desk recorded for
   * the claim belongs to a process that is gone (on PostgreSQL, silent for `staleMs`; on SQLite, any
   * other process, as there is one). Taken over now, by a conditional update, instead of waiting for
   * the claim to run out; a claim with no revoke recorded yet sent nothing and waits for that.
   */
  async function takeOverAbandoned(): Promise<{ rows: ProgressReturnRow[]; open: boolean }> {
    const at = now();
    const running = await db
      .selectFrom('progress_returns')
      .selectAll()
      .where('state', '=', 'returning')
      .where('claimed_until', '>=', at.toISOString())
      .execute();
    if (running.length === 0) return { rows: [], open: false };
    const alive =
      records.dialect === 'sqlite'
        ? new Set([records.instance])
        : new Set(
            (
              await db
                .selectFrom('instances')
                .select('id')
                .where('seen_at', '>=', new Date(at.getTime() - staleMs).toISOString())
                .execute()
            ).map((r) => r.id),
          );
    const rows: ProgressReturnRow[] = [];
    let open = false;
    for (const row of running) {
      const last = await db
        .selectFrom('intents')
        .select(['instance', 'state'])
        .where('subject', '=', row.license_id)
        .where('kind', '=', 'revoke')
        .where('owner', '=', APP_ACTOR)
        .where('created_at', '>=', row.claimed_at)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!last || last.instance === records.instance || alive.has(last.instance)) continue;
      const taken = await db
        .updateTable('progress_returns')
        .set({ claimed_until: until(at).toISOString() })
        .where('license_id', '=', row.license_id)
        .where('state', '=', 'returning')
        .where('claimed_until', '=', row.claimed_until)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      rows.push({ ...row, claimed_until: until(at).toISOString() });
      if (last.state === 'open') open = true;
    }
    return { rows, open };
  }

  async function resume(): Promise<number> {
    const abandoned = await takeOverAbandoned();
    // Their DELETE's intent is read back first (the settler audits it), then the claim goes on below.
    if (abandoned.open) await opts.settle?.().catch(() => undefined);
    const rows = [...abandoned.rows, ...(await store.takeOver(now(), until(now())))];
    let ended = 0;
    for (const row of rows) {
      try {
        const r = await resumeOne(row);
        if (r !== 'later') ended++;
        logger.info('automatic return read back after a restart', { licenseId: row.license_id, result: r });
      } catch (error) {
        logger.warn('automatic return: the read-back failed; trying again later', {
          licenseId: row.license_id,
          error: String(error),
        });
      }
    }
    return ended;
  }

  async function afterPass(pass: { startedAt: string }): Promise<AutoReturnRun | undefined> {
    if (!settings.on) return undefined;
    await resume();
    const at = now();
    // At most `max` a pass, even when the work after it runs twice (a retry, another replica).
    const room = settings.max - (await store.claimedBy(pass.startedAt));
    const due: ReturnCandidate[] = room > 0 ? await store.due(at, settings.afterDays, room) : [];
    const run: AutoReturnRun = { pools: [], returned: 0, failed: 0, gone: 0, later: 0 };
    const byPool = new Map<string, ReturnedInPool>();
    for (const c of due) {
      if (!(await store.claim(c, pass.startedAt, now(), until(now())))) continue;
      const row = {
        license_id: c.licenseId,
        pool_id: c.poolId,
        student_email: c.studentEmail.toLowerCase(),
        completed_on: c.completedOn,
      };
      let ended: Ended;
      let courseTitle: string | undefined;
      try {
        ({ ended, courseTitle } = await send(row));
      } catch (error) {
        // The claim stays `returning`: once it runs out, resume reads it back.
        logger.warn('automatic return: a return did not finish; it is read back later', {
          licenseId: c.licenseId,
          error: String(error),
        });
        ended = 'later';
      }
      run[ended] += 1;
      if (ended === 'returned') {
        const pool = byPool.get(c.poolId) ?? { poolId: c.poolId, ...(courseTitle ? { courseTitle } : {}), count: 0 };
        pool.count += 1;
        byPool.set(c.poolId, pool);
      }
    }
    run.pools = [...byPool.values()].sort((a, b) => b.count - a.count || a.poolId.localeCompare(b.poolId));
    if (opts.channel && run.returned + run.failed > 0) {
      const notice: AutoReturnNotice = {
        kind: 'progress-returns',
        channel: opts.channel,
        pools: run.pools,
        failed: run.failed,
      };
      await db.transaction().execute((trx) => outbox.enqueue(trx, notice, `progress-returns:${pass.startedAt}`));
      outbox.kick();
    }
    if (due.length > 0)
      logger.info('finished seats returned after the progress pass', {
        due: due.length,
        returned: run.returned,
        failed: run.failed,
        gone: run.gone,
        later: run.later,
      });
    return run;
  }

  return { afterPass, resume };
}
