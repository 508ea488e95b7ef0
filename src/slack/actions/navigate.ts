/** Previous / Next / include-inactive / Licenses / Details: the same answers as the command, on click. */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { buildErrorMessage, buildRefusalMessage, buildWorkingMessage } from '../../blocks/common.js';
import { answer, workingText } from '../commands/answer.js';
import { createReplier, roleOrReply } from '../commands/reply.js';
import type { AppDeps } from '../deps.js';
import { decodeNav } from './nav-value.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export function createNavigationHandler(deps: AppDeps) {
  return async ({ ack, body, action, respond, client }: ButtonArgs): Promise<void> => {
    await ack();
    // Our buttons live in messages only; a modal-origin click has no response_url (platform.md 1.3).
    if (!body.response_url) return deps.logger.warn('navigation click without response_url', { id: action.action_id });
    const reply = createReplier(respond, deps, false);
    const role = await roleOrReply(deps, client, body.user.id, reply);
    if (role === undefined) return;
    // Replacing the clicked message also takes student data away from someone who lost access.
    if (role === 'none') return reply.send(buildRefusalMessage(deps.roles.whoToAsk()));
    const target = decodeNav(action.value);
    if (!target) return reply.send(buildErrorMessage('That button no longer works; please run /licenses again.'));
    const question = { kind: 'view', target } as const;
    await reply.send(buildWorkingMessage(workingText(question)));
    await reply.send(await answer(question, { deps, role, client }));
  };
}
