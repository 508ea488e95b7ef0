/**
 * Previous / Next / include-inactive / Licenses / Details: the same read as the command, on click. The
 * button's target (src/kernel/blocks/nav.ts) names the view; the table's entry for that view answers.
 */
import { buildErrorMessage } from '../../kernel/blocks/common.js';
import { decodeNav } from '../../kernel/blocks/nav.js';
import { BUTTON_GONE, type ClickArgs, onClick, refusalMessage } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import type { Surface } from '../../kernel/slack/state.js';
import { resolveTarget } from './index.js';

export type ButtonArgs = ClickArgs;

export function createNavigationHandler(s: Surface) {
  const { deps } = s;
  // Replacing the clicked message also takes student data away from someone who lost access.
  const tell = async ({ body, respond }: ClickArgs, verdict: Parameters<typeof refusalMessage>[0]) => {
    if (body.response_url) await createReplier(respond, deps, false).send(refusalMessage(verdict));
  };
  // Every view a navigation button leads to is a read: a viewer may follow it.
  return onClick(s, { need: 'viewer', tell }, async ({ body, action, respond, client }, granted) => {
    // Our buttons live in messages only; a modal-origin click has no response_url (platform.md 1.3).
    if (!body.response_url) return deps.logger.warn('navigation click without response_url', { id: action.action_id });
    const reply = createReplier(respond, deps, false);
    const target = decodeNav(action.value);
    const bound = target ? resolveTarget(target) : undefined;
    if (!bound) return reply.send(buildErrorMessage(BUTTON_GONE));
    await bound.run({
      deps,
      state: s.state,
      client,
      userId: body.user.id,
      role: granted.role,
      canChange: granted.canChange,
      scope: granted.scope,
      reply,
    });
  });
}
