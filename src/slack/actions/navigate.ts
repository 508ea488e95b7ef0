/**
 * Previous / Next / include-inactive / Licenses / Details: the same read as the command, on click. The
 * button's target (src/blocks/nav.ts) names the view; the table's entry for that view answers.
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { buildErrorMessage, buildRefusalMessage } from '../../blocks/common.js';
import { decodeNav } from '../../blocks/nav.js';
import { createReplier } from '../commands/reply.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../gate.js';
import { resolveTarget } from '../subcommands/index.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export function createNavigationHandler(deps: AppDeps) {
  return async ({ ack, body, action, respond, client }: ButtonArgs): Promise<void> => {
    await ack();
    // Our buttons live in messages only; a modal-origin click has no response_url (platform.md 1.3).
    if (!body.response_url) return deps.logger.warn('navigation click without response_url', { id: action.action_id });
    const reply = createReplier(respond, deps, false);
    const target = decodeNav(action.value);
    const bound = target ? resolveTarget(target) : undefined;
    const verdict = await authorize(deps, client, body.user.id, bound?.entry.need ?? 'viewer');
    if (!verdict.allowed) {
      if (verdict.reason === 'slack-busy') return reply.send(buildErrorMessage(verdict.text));
      // Replacing the clicked message also takes student data away from someone who lost access.
      return reply.send(buildRefusalMessage(deps.roles.whoToAsk()));
    }
    if (!bound) return reply.send(buildErrorMessage('That button no longer works; please run /licenses again.'));
    await bound.run({
      deps,
      client,
      userId: body.user.id,
      role: verdict.role,
      canChange: verdict.canChange,
      reply,
    });
  };
}
