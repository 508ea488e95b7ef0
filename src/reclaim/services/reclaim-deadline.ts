/**
 * The scheduler's work on the rounds (docs/reclaim.md, "Reminder and deadline"): one batched reminder
 * a person a day before the deadline, and at the deadline each unanswered ask gets its round's policy.
 * Safe with replicas (claims by conditional update, keyed messages) and after a kill (a claim runs out;
 * a release is read back, a license found inactive counts as released).
 */
import type { ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import { askNotice, auditAsk, DAY_MS, enqueue, markReleased, type ReclaimContext, release } from './reclaim-context.js';

/** Due reminders, one message a person listing their asks; how many people were reminded. */
export async function remind(ctx: ReclaimContext, at: Date): Promise<number> {
  const iso = at.toISOString();
  const due = await ctx.store.dueReminders(iso);
  const byUser = new Map<string, typeof due>();
  for (const a of due) byUser.set(a.slack_user, [...(byUser.get(a.slack_user) ?? []), a]);
  const dayAgo = new Date(at.getTime() - DAY_MS).toISOString();
  let sent = 0;
  for (const [user, asks] of byUser) {
    // At most one reminder a person a day; the rest go with tomorrow's.
    if (await ctx.store.remindedSince(user, dayAgo)) continue;
    const claimed = await ctx.store.transaction(async (tx) => {
      const mine: typeof asks = [];
      for (const a of asks) if (await tx.claimReminder(a.id, iso)) mine.push(a);
      if (mine.length > 0) {
        const notices = mine.map((a) => askNotice(a, a.deadline_at));
        const key = `reclaim:remind:${user}:${iso.slice(0, 10)}`;
        await enqueue(tx, ctx, { kind: 'reclaim-reminder', user, asks: notices }, key);
      }
      return mine.length;
    });
    if (claimed > 0) sent++;
  }
  if (sent > 0) ctx.outbox.kick();
  return sent;
}

/** The deadline's work of each due round, one process a round; how many rounds were closed. */
export async function closeDue(ctx: ReclaimContext, at: Date): Promise<number> {
  const iso = at.toISOString();
  let closed = 0;
  for (const round of await ctx.store.dueRounds(iso)) {
    // One process does a round's deadline work; a claim left by a killed process runs out.
    const until = new Date(at.getTime() + ctx.claimMs).toISOString();
    if (!(await ctx.store.claimRound(round.id, iso, until))) continue;
    for (const ask of await ctx.store.asksOf(round.id, ['asked', 'expiring', 'releasing']))
      await settle(ctx, ask, round);
    await ctx.store.transaction(async (tx) => {
      await tx.closeRound(round.id, ctx.now().toISOString());
      await enqueue(tx, ctx, { kind: 'reclaim-round', roundId: round.id }, `reclaim:${round.id}:closed`);
    });
    ctx.outbox.kick();
    closed++;
  }
  return closed;
}

/** One unanswered ask at its round's deadline: superseded, listed, or released by the policy. */
async function settle(ctx: ReclaimContext, ask: ReclaimAskRow, round: ReclaimRoundRow): Promise<void> {
  const { store } = ctx;
  // Answered in another round (rounds written before one open round per pool): that answer stands.
  // Nothing is sent or told again; the ask takes its outcome, so the figures stay true.
  const by = ask.state === 'releasing' ? undefined : await store.supersededBy(ask, round);
  if (by) {
    await store.moveAsk(ask.id, { state: by, detail: `${by} in another reclaim round` }, ['asked', 'expiring']);
    return;
  }
  // 'releasing': the holder chose Release and the process died before its outcome was recorded;
  // the holder's choice stands whatever the policy, and the read-back tells whether it was sent.
  if (round.policy !== 'release' && ask.state !== 'releasing') {
    await store.moveAsk(ask.id, { state: 'unanswered' }, ['asked', 'expiring']);
    return;
  }
  if (!(await store.moveAsk(ask.id, { state: 'expiring' }, ['asked', 'expiring', 'releasing']))) return;
  const result = await release(ctx, ask, round.admin);
  if (result.ok) return markReleased(ctx, ask, round, 'deadline');
  await store.moveAsk(ask.id, { state: 'failed', detail: result.sentence });
  const entry = {
    at: ctx.now().toISOString(),
    actor: round.admin,
    action: 'reclaim-released',
    outcome: 'failed',
  } as const;
  await auditAsk(ctx, ask, entry, result.sentence);
}
