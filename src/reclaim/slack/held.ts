/**
 * A reclaim round held for a second admin (docs/roles-and-approvals.md): what is held (the preview's
 * holders exactly as shown, and the figures the card shows), and its start once approved, under a
 * round id taken from the held change's, so a start repeated after a restart starts nothing twice.
 */
import * as z from 'zod';
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { MassChangeFigures } from '../../two-person/index.js';
import type { ReclaimPolicy, ReclaimPreview } from '../domain/reclaim.js';

type Shown = Extract<ReclaimPreview, { kind: 'preview' }>;

interface HeldRoundPlan {
  poolId?: string;
  policy: ReclaimPolicy;
  shown: Shown;
}

/** What the rule holds of a round about to start: its submitter, figures, pools and plan. */
export function heldRound(admin: string, poolId: string | undefined, policy: ReclaimPolicy, shown: Shown) {
  const pools = shown.pools.filter((p) => p.ask.length > 0);
  const figures: MassChangeFigures = {
    kind: 'reclaim',
    ...(poolId ? { poolId } : {}),
    pools: pools.map((p) => ({ poolId: p.poolId, courseTitle: p.courseTitle, holders: p.ask.length })),
    holders: pools.reduce((n, p) => n + p.ask.length, 0),
    notInSlack: shown.pools.reduce((n, p) => n + p.notInSlack.length, 0),
    policy,
  };
  const plan: HeldRoundPlan = { ...(poolId ? { poolId } : {}), policy, shown };
  return { submitter: admin, figures, poolIds: pools.map((p) => p.poolId), plan };
}

const Plan = z.object({
  poolId: z.string().optional(),
  policy: z.enum(['release', 'list']),
  shown: z
    .object({ kind: z.literal('preview'), pools: z.array(z.object({ ask: z.array(z.unknown()) }).loose()) })
    .loose(),
});

/** Starts an approved held round (its id from the change's: `mc…` becomes `rr…`). */
export async function startHeldRound(deps: AppDeps, change: { id: string; submitter: string; plan: unknown }) {
  const reclaim = deps.reclaim;
  if (!reclaim) throw new Error('reclaim rounds are not set up in this process');
  const parsed = Plan.safeParse(change.plan);
  if (!parsed.success) throw new Error('the held reclaim round is unreadable');
  const plan = change.plan as HeldRoundPlan;
  const outcome = await reclaim.service.startPreviewed(
    change.submitter,
    plan.poolId,
    plan.policy,
    plan.shown,
    `rr${change.id.slice(2)}`,
  );
  if (outcome.kind !== 'started')
    deps.logger.warn('approved reclaim round did not start', { changeId: change.id, outcome: outcome.kind });
}
