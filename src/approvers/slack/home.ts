/**
 * App Home's "Away and delegates" for a license admin: their delegation (with "End it now") or the
 * button that sets one, and their choice of the daily list. Added under the dashboard by the
 * composition root (home's `sections`); nothing when the records do not answer.
 */
import type { Block } from '../../kernel/blocks/kit.js';
import { LIMITS } from '../../kernel/blocks/limits.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { buildAwayHomeSection } from '../blocks/approvers.js';
import { createApproverStore } from '../db/store.js';
import { dayOf } from '../domain/delegation.js';

export async function withAwaySection<V extends { blocks: Block[] }>(
  deps: AppDeps,
  canChange: boolean,
  view: V,
  userId: string | undefined,
): Promise<V> {
  if (!canChange || !userId || !deps.records) return view;
  try {
    const store = createApproverStore(deps.records);
    const [delegation] = await store.liveOf(userId, dayOf(deps.now()));
    const section = buildAwayHomeSection({ delegation, dailyList: await store.dailyList(userId) });
    if (view.blocks.length + section.length > LIMITS.viewBlocks) return view;
    return { ...view, blocks: [...view.blocks, ...section] };
  } catch (error) {
    deps.logger.warn('could not read the delegations for the Home tab', { error: String(error) });
    return view;
  }
}
