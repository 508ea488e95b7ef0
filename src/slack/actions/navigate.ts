/** Previous / Next / include-inactive / Licenses / Details: the same answers as the command, on click. */
import { buildErrorMessage, buildWorkingMessage } from '../../blocks/common.js';
import { answer, workingText } from '../commands/answer.js';
import { createReplier } from '../commands/reply.js';
import { BUTTON_GONE, type ClickArgs, onClick, refusalMessage } from '../gate-bolt.js';
import type { Surface } from '../views/state.js';
import { decodeNav } from './nav-value.js';

export type ButtonArgs = ClickArgs;

export function createNavigationHandler(s: Surface) {
  const { deps } = s;
  // Replacing the clicked message also takes student data away from someone who lost access.
  const tell = async ({ body, respond }: ClickArgs, verdict: Parameters<typeof refusalMessage>[0]) => {
    if (body.response_url) await createReplier(respond, deps, false).send(refusalMessage(verdict));
  };
  return onClick(s, { need: 'viewer', tell }, async ({ body, action, respond, client }, granted) => {
    // Our buttons live in messages only; a modal-origin click has no response_url (platform.md 1.3).
    if (!body.response_url) return deps.logger.warn('navigation click without response_url', { id: action.action_id });
    const reply = createReplier(respond, deps, false);
    const target = decodeNav(action.value);
    if (!target) return reply.send(buildErrorMessage(BUTTON_GONE));
    const question = { kind: 'view', target } as const;
    await reply.send(buildWorkingMessage(workingText(question)));
    await reply.send(await answer(question, { deps, role: granted.role, client }));
  });
}
