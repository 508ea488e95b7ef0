/**
 * `/licenses request [course words | poolId]` and `/licenses requests`: open to every member who may
 * request (REQUESTERS), not only to license admins and viewers, so they are answered before the role
 * check of the other subcommands.
 */
import type { SlashCommand, webApi } from '@slack/bolt';
import { buildNoticeMessage } from '../../blocks/common.js';
import { buildMyRequestsMessage } from '../../blocks/requests.js';
import type { Replier } from '../commands/reply.js';
import type { AppDeps } from '../deps.js';
import { authorizeRequester } from '../gate.js';
import { normalize } from '../parse.js';
import { notSetUp, nowhereToGo, openRequestModal } from './form.js';

export interface RequestCommandContext {
  deps: AppDeps;
  client: webApi.WebClient;
  command: Pick<SlashCommand, 'user_id' | 'trigger_id'>;
  reply: Replier;
}

/** `request …` or `requests` as the subcommand, with the words after it; undefined for any other text. */
export function requestSubcommand(text: string): { sub: 'request' | 'requests'; words: string[] } | undefined {
  const [first, ...words] = normalize(text.length > 500 ? '' : text);
  const sub = first?.toLowerCase();
  return sub === 'request' || sub === 'requests' ? { sub, words } : undefined;
}

export async function runRequestCommand(words: string[], ctx: RequestCommandContext): Promise<void> {
  const { deps, client, command, reply } = ctx;
  if (!deps.requests?.service) return reply.send(buildNoticeMessage(notSetUp(deps)));
  const verdict = await authorizeRequester(deps, client, command.user_id);
  const refusal = verdict.allowed ? nowhereToGo(deps) : verdict.text;
  if (refusal) return reply.send(buildNoticeMessage(refusal));
  const opened = await openRequestModal(deps, client, command.trigger_id, command.user_id, 'command', words);
  if (!opened) await reply.send(buildNoticeMessage('Slack would not open the request form in time; please try again.'));
}

export async function runRequestsCommand(words: string[], ctx: RequestCommandContext): Promise<void> {
  const { deps, client, command, reply } = ctx;
  const service = deps.requests?.service;
  if (!service) return reply.send(buildNoticeMessage(notSetUp(deps)));
  if (words.length > 0)
    return reply.send(buildNoticeMessage('`/licenses requests` takes nothing after it; it lists your own requests.'));
  const verdict = await authorizeRequester(deps, client, command.user_id);
  if (!verdict.allowed) return reply.send(buildNoticeMessage(verdict.text));
  await reply.send(buildMyRequestsMessage(await service.mine(command.user_id)));
}
