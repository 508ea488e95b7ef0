/**
 * Where the two-person rule cannot hold (docs/roles-and-approvals.md): pools whose mass changes only
 * one person could decide (approversOf gives one admin). App Home shows the line to admins; the
 * roles' command can show the same line (`soleDeciderWarning`).
 */
import type { webApi } from '@slack/bolt';
import { context, divider } from '../../kernel/blocks/kit.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { approversOf } from '../../kernel/slack/gate.js';
import { soleDeciderLine } from '../blocks/two-person.js';

/**
 * One mrkdwn line naming the pools only one admin decides, and that admin; undefined when every pool
 * has two or more (or the rule is off, or not set up). A failed lookup leaves its pool out.
 */
export async function soleDeciderWarning(
  deps: AppDeps,
  client: webApi.WebClient,
  poolIds: readonly string[],
): Promise<string | undefined> {
  if (!deps.twoPerson || deps.twoPerson.settings.minRows === 0 || poolIds.length === 0) return undefined;
  const byDecider = new Map<string, string[]>();
  for (const poolId of poolIds) {
    const deciders = [...new Set(await approversOf(deps, client, poolId).catch(() => ['?', '?']))];
    const only = deciders.length === 1 ? deciders[0] : undefined;
    if (only) byDecider.set(only, [...(byDecider.get(only) ?? []), poolId]);
  }
  const alone = [...byDecider].map(([decider, pools]) => ({ decider, poolIds: pools }));
  const everyPool = alone.length === 1 && alone[0]?.poolIds.length === poolIds.length;
  return soleDeciderLine(alone, everyPool);
}

type HomeSection<V extends { blocks: unknown[] }> = (deps: AppDeps, canChange: boolean, view: V) => Promise<V>;

/** App Home's line for admins (after the dashboard's pools are read), on top of `next`'s sections. */
export function withSoleDeciderLine<V extends { blocks: unknown[] }>(
  client: webApi.WebClient,
  next: HomeSection<V>,
): HomeSection<V> {
  return async (deps, canChange, view) => {
    const shown = await next(deps, canChange, view);
    if (!canChange) return shown;
    const pools = deps.desk?.dashboard.current()?.pools ?? [];
    const line = await soleDeciderWarning(
      deps,
      client,
      pools.map((p) => p.id),
    ).catch(() => undefined);
    return line ? { ...shown, blocks: [...shown.blocks, divider(), context(line)] } : shown;
  };
}
