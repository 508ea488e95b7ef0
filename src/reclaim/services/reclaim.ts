/**
 * Reclaim rounds ("still learning?", docs/reclaim.md). An admin previews who would be asked (holders
 * of transferable pools who stalled or never started, by the progress records: reclaim-preview.ts),
 * starts a round (the round and its asks in one transaction, each holder's DM through the outbox,
 * keyed: reclaim-start.ts), the holders answer Keep or Release (reclaim-answer.ts), one batched
 * reminder goes out before the deadline, and at the deadline the unanswered asks get the round's
 * policy: released (the revoke use case, an intent before the write) or only listed in the admin's
 * round message (reclaim-deadline.ts). Every query is the feature's store's (db/store.ts).
 */
import { createReclaimStore } from '../db/store.js';
import type { ReclaimAnswerOutcome, ReclaimPolicy, ReclaimPreview, ReclaimRoundView } from '../domain/reclaim.js';
import { answer } from './reclaim-answer.js';
import type { LookupUser, ReclaimOptions } from './reclaim-context.js';
import { closeDue, remind } from './reclaim-deadline.js';
import { preview } from './reclaim-preview.js';
import { type OneHolder, type ReclaimStartOutcome, start, startOne, startPreviewed } from './reclaim-start.js';
import { roundView } from './round-views.js';

export type { LookupUser, ReclaimOptions } from './reclaim-context.js';
export type { OneHolder, ReclaimStartOutcome } from './reclaim-start.js';

export interface ReclaimTickOutcome {
  /** Reminder messages enqueued (one per person). */
  reminded: number;
  /** Rounds whose deadline's work was done. */
  closed: number;
}

export interface Reclaim {
  preview(poolId: string | undefined, lookup: LookupUser): Promise<ReclaimPreview>;
  start(
    admin: string,
    poolId: string | undefined,
    policy: ReclaimPolicy,
    lookup: LookupUser,
  ): Promise<ReclaimStartOutcome>;
  /**
   * Starts the round `shown` previewed, asking exactly its holders; with `roundId`, once only (a round
   * held for a second admin and approved: docs/roles-and-approvals.md).
   */
  startPreviewed(
    admin: string,
    poolId: string | undefined,
    policy: ReclaimPolicy,
    shown: Extract<ReclaimPreview, { kind: 'preview' }>,
    roundId?: string,
  ): Promise<ReclaimStartOutcome>;
  /** A round of one holder (a seat reached through a waitlist offer, still at 0 %): docs/leavers-and-offers.md. */
  askOne(holder: OneHolder): Promise<'asked' | 'started' | 'not-now'>;
  answer(askId: string, user: string, choice: 'keep' | 'release'): Promise<ReclaimAnswerOutcome>;
  /** The admin's round message's figures, or undefined for an unknown round. */
  roundView(roundId: string): Promise<{ view: ReclaimRoundView; channel?: string; ts?: string } | undefined>;
  /**
   * Where the admin's round message was posted (chat.update targets it afterwards); false when another
   * replica's post was recorded first (that one is kept).
   */
  setMessage(roundId: string, channel: string, ts: string): Promise<boolean>;
  /** Due reminders and due deadlines. */
  tick(): Promise<ReclaimTickOutcome>;
}

export function createReclaim(opts: ReclaimOptions): Reclaim {
  const ctx = { ...opts, store: createReclaimStore(opts.records), claimMs: opts.claimMs ?? 5 * 60_000 };
  return {
    preview: (poolId, lookup) => preview(ctx, poolId, lookup),
    start: (admin, poolId, policy, lookup) => start(ctx, admin, poolId, policy, lookup),
    startPreviewed: (admin, poolId, policy, shown, roundId) =>
      startPreviewed(ctx, admin, poolId, policy, shown, roundId),
    askOne: (holder) => startOne(ctx, holder, 'list'),
    answer: (askId, user, choice) => answer(ctx, askId, user, choice),
    roundView: (roundId) => roundView(ctx.store, roundId),
    setMessage: (roundId, channel, ts) => ctx.store.setMessage(roundId, channel, ts),
    async tick() {
      const at = opts.now();
      const reminded = await remind(ctx, at);
      const closed = await closeDue(ctx, at);
      return { reminded, closed };
    },
  };
}
