/**
 * A holder's answer (docs/reclaim.md, "Keep or Release"): Keep is recorded and remembered, Release
 * revokes the seat at once through the revoke use case. Taken once, whoever clicks twice or on which
 * replica; a closed round, or another round's answer about the same license, records nothing.
 */
import type { ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import type { AskState, ReclaimAnswerOutcome, ReclaimAskNotice } from '../domain/reclaim.js';
import { askNotice, auditAsk, enqueue, markReleased, type ReclaimContext, release } from './reclaim-context.js';

const ANSWERED: AskState[] = ['kept', 'released', 'releasing'];

export async function answer(
  ctx: ReclaimContext,
  askId: string,
  user: string,
  choice: 'keep' | 'release',
): Promise<ReclaimAnswerOutcome> {
  const ask = await ctx.store.ask(askId);
  const round = ask && ask.slack_user === user ? await ctx.store.round(ask.round_id) : undefined;
  if (!ask || !round) return { kind: 'not-yours' };
  const notice = askNotice(ask, round.deadline_at);
  const at = ctx.now().toISOString();
  if (ANSWERED.includes(ask.state as AskState)) return { kind: 'already', state: ask.state as AskState, ask: notice };
  // A closed round (or one past its deadline) takes no answer: nothing is recorded.
  if (ask.state !== 'asked' || round.state !== 'open' || at >= round.deadline_at)
    return { kind: 'too-late', ask: notice };
  const claim = await claimAnswer(ctx, ask, round, choice, at);
  if ('by' in claim) return { kind: 'superseded', ask: notice, by: claim.by };
  if (!claim.won) {
    const state = ((await ctx.store.ask(askId))?.state ?? 'asked') as AskState;
    return ANSWERED.includes(state) ? { kind: 'already', state, ask: notice } : { kind: 'too-late', ask: notice };
  }
  if (choice === 'keep') {
    ctx.outbox.kick();
    await auditAsk(ctx, ask, { at, actor: user, action: 'reclaim-kept', outcome: 'done' });
    return { kind: 'kept', ask: notice, keepDays: ctx.settings.keepDays };
  }
  return releaseNow(ctx, ask, round, user, notice);
}

/**
 * The answer recorded, unless another round's ask about the same license was answered first (rounds
 * from before one open round per pool, or a race of two answers): then this question is closed. On
 * PostgreSQL the license's asks are locked so that two answers on two replicas are taken in turn.
 */
function claimAnswer(
  ctx: ReclaimContext,
  ask: ReclaimAskRow,
  round: ReclaimRoundRow,
  choice: 'keep' | 'release',
  at: string,
): Promise<{ by: 'released' | 'kept' } | { won: boolean }> {
  return ctx.store.transaction(async (tx) => {
    await tx.lockLicense(ask.license_id);
    const by = await tx.supersededBy(ask, round);
    if (by) return { by };
    const change = choice === 'keep' ? { state: 'kept' as const, answered_at: at } : { state: 'releasing' as const };
    const won = await tx.moveAsk(ask.id, change, ['asked']);
    if (won && choice === 'keep') await enqueue(tx, ctx, { kind: 'reclaim-round', roundId: round.id });
    return { won };
  });
}

/** Release it: the seat revoked now; when nothing was released the ask is open again, to try again. */
async function releaseNow(
  ctx: ReclaimContext,
  ask: ReclaimAskRow,
  round: ReclaimRoundRow,
  user: string,
  notice: ReclaimAskNotice,
): Promise<ReclaimAnswerOutcome> {
  const result = await release(ctx, ask, user);
  if (result.ok) {
    await markReleased(ctx, ask, round, 'holder');
    return { kind: 'released', ask: notice };
  }
  await ctx.store.moveAsk(ask.id, { state: 'asked' }, ['releasing']);
  return { kind: 'release-failed', ask: notice, sentence: result.sentence };
}
