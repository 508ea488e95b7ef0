/**
 * Where a mass change meets the rule (docs/roles-and-approvals.md, "A second pair of eyes on mass
 * changes"): bulk's confirmation and reclaim's Start ask here before they start anything. Under the
 * threshold (or with the rule off, or without records) the answer is undefined and they start as
 * always; over it the change is held, its plan as previewed, with a card to each other admin who
 * covers every pool it touches, or, where nobody else could decide, the submitter's own confirmation.
 */
import type { webApi } from '@slack/bolt';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { approversOf } from '../../kernel/slack/gate.js';
import { buildHeldMessage, buildHeldModal, type ModalView } from '../blocks/two-person.js';
import type { MassChangeFigures } from '../domain/two-person.js';
import type { HoldOutcome } from '../services/two-person.js';

/** Everyone who decides for every one of `poolIds` (approversOf each, the people common to all). */
export async function decidersOf(
  deps: AppDeps,
  client: webApi.WebClient,
  poolIds: readonly string[],
): Promise<string[]> {
  let common: string[] | undefined;
  for (const poolId of poolIds) {
    const these = new Set(await approversOf(deps, client, poolId));
    common = common ? common.filter((u) => these.has(u)) : [...these];
  }
  return common ?? [];
}

export interface HeldChange {
  outcome: HoldOutcome;
  /** The submitter's reply: a message (reclaim's Start) or the bulk modal's next view. */
  message(): ReturnType<typeof buildHeldMessage>;
  modal(title: string): ModalView;
}

/**
 * Holds the change when the rule applies to it; undefined when it does not (start it as always).
 * Throws when the change could not be recorded (the caller tells its failure as any other).
 */
export async function holdForSecondAdmin(
  deps: AppDeps,
  client: webApi.WebClient,
  input: { submitter: string; figures: MassChangeFigures; poolIds: string[]; plan: unknown },
): Promise<HeldChange | undefined> {
  const rule = deps.twoPerson;
  if (!rule?.applies(input.figures)) return undefined;
  const deciders = await decidersOf(deps, client, input.poolIds);
  const outcome = await rule.hold(input, deciders);
  const held =
    outcome.kind === 'pending'
      ? { kind: 'pending' as const, approvers: outcome.approvers, expiresAt: outcome.change.expiresAt }
      : { kind: 'confirm' as const, changeId: outcome.change.id };
  deps.logger.info('mass change held for a second admin', {
    changeId: outcome.change.id,
    kind: input.figures.kind,
    state: outcome.change.state,
    user: input.submitter,
  });
  return {
    outcome,
    message: () => buildHeldMessage(held, input.figures),
    modal: (title) => buildHeldModal(held, input.figures, title),
  };
}
