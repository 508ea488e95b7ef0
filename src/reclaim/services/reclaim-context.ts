/**
 * What the reclaim use cases share (docs/reclaim.md): their options and store, the holder's view of
 * an ask, and a release, which the holder's Release and the deadline both go through.
 */
import { randomBytes } from 'node:crypto';
import { type ChangeContext, revoke } from '../../changes/index.js';
import type { Records } from '../../kernel/db/open.js';
import type { ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { ProgressStore } from '../../progress/index.js';
import type { ReclaimStore } from '../db/store.js';
import type { ReclaimAskNotice, ReclaimNotice, ReclaimSettings } from '../domain/reclaim.js';

/** The Slack user of an e-mail, or undefined when the workspace has none (users_not_found). */
export type LookupUser = (email: string) => Promise<string | undefined>;

export interface ReclaimOptions {
  records: Records;
  progress: ProgressStore;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The change context of the revoke use case (audit trail, intents, waitlist hand-on). */
  change: () => ChangeContext;
  audit: () => AuditLog | undefined;
  /** How many approved requests wait for a seat in a pool. */
  waiting: (poolId: string) => Promise<number>;
  now: () => Date;
  settings: ReclaimSettings;
  logger: Logger;
  /** How long the deadline's work of a round is one process's (default 5 minutes). */
  claimMs?: number;
}

/** The options with the feature's store: what every use case of reclaim is given. */
export interface ReclaimContext extends ReclaimOptions {
  store: ReclaimStore;
  claimMs: number;
}

export const DAY_MS = 86_400_000;

export const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

/** An outbox message of reclaim, written in the transaction of `tx`. */
export function enqueue(tx: ReclaimStore, ctx: ReclaimContext, notice: ReclaimNotice, key?: string): Promise<void> {
  return ctx.outbox.enqueue(tx.handle, notice, key);
}

export function askNotice(a: ReclaimAskRow, deadlineAt: string): ReclaimAskNotice {
  return {
    askId: a.id,
    poolId: a.pool_id,
    courseTitle: a.course_title,
    progress: Number(a.progress),
    standing: a.standing === 'stalled' ? 'stalled' : 'not-started',
    since: a.since,
    watched: Number(a.since_watched) === 1,
    deadlineAt,
  };
}

/** An audit entry about an ask's license, when the audit trail is there. */
export async function auditAsk(
  ctx: ReclaimContext,
  ask: ReclaimAskRow,
  entry: { at: string; actor: string; action: 'reclaim-released' | 'reclaim-kept'; outcome: 'done' | 'failed' },
  detail?: string,
): Promise<void> {
  await ctx.audit()?.record({
    ...entry,
    poolId: ask.pool_id,
    licenseId: ask.license_id,
    courseTitle: ask.course_title,
    studentName: ask.student_name,
    studentEmail: ask.student_email,
    ...(detail !== undefined ? { detail } : {}),
  });
}

/**
 * The revoke of an ask's license through the revoke use case (intent first, audited, the freed seat
 * handed to the waitlist). A license already inactive counts as released: the read-back after a kill.
 */
export async function release(
  ctx: ReclaimContext,
  ask: ReclaimAskRow,
  actor: string,
): Promise<{ ok: true } | { ok: false; sentence: string }> {
  const outcome = await revoke(ctx.change(), { actor, licenseId: ask.license_id });
  if (outcome.kind === 'written') {
    if (outcome.write.kind === 'done') return { ok: true };
    const w = outcome.write;
    return { ok: false, sentence: 'sentence' in w ? w.sentence : 'the licensing service’s answer was lost' };
  }
  if (outcome.kind === 'blocked' && outcome.blocker === 'inactive') return { ok: true };
  if (outcome.kind === 'blocked') return { ok: false, sentence: `the license cannot be revoked (${outcome.blocker})` };
  return { ok: false, sentence: outcome.sentence };
}

/** Marks an ask released, audits it, tells the holder (at the deadline) and the admin's message. */
export async function markReleased(
  ctx: ReclaimContext,
  ask: ReclaimAskRow,
  round: ReclaimRoundRow,
  by: 'holder' | 'deadline',
): Promise<void> {
  const at = ctx.now().toISOString();
  await ctx.store.transaction(async (tx) => {
    await tx.moveAsk(ask.id, { state: 'released', answered_at: at });
    // The holder who clicked is answered in place of the question; at a deadline they are told by DM.
    if (by === 'deadline') {
      const notice = askNotice(ask, round.deadline_at);
      await enqueue(
        tx,
        ctx,
        { kind: 'reclaim-released', user: ask.slack_user, ask: notice, by },
        `reclaim:${ask.id}:released`,
      );
    }
    await enqueue(tx, ctx, { kind: 'reclaim-round', roundId: round.id });
  });
  ctx.outbox.kick();
  const actor = by === 'holder' ? ask.slack_user : round.admin;
  const detail = by === 'holder' ? 'the holder chose Release it' : 'no answer by the round’s deadline';
  await auditAsk(ctx, ask, { at, actor, action: 'reclaim-released', outcome: 'done' }, detail);
}
