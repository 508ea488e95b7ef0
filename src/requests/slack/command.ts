/**
 * `/licenses request [course words | poolId]` and `/licenses requests`: open to every member who may
 * request (REQUESTERS), not only to license admins and viewers, so they are answered before the role
 * check of the other subcommands.
 */
import type { SlashCommand, webApi } from '@slack/bolt';
import { buildNoticeMessage } from '../../kernel/blocks/common.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { Replier } from '../../kernel/slack/reply.js';
import { buildMyRequestsMessage } from '../blocks/requests.js';
import { notSetUp, nowhereToGo, openRequestModal } from './form.js';

/** What the two subcommands need: the listener already asked the gate's requester check. */
export interface RequestCommandContext {
  deps: AppDeps;
  client: webApi.WebClient;
  command: Pick<SlashCommand, 'user_id' | 'trigger_id'>;
  reply: Replier;
}

export async function runRequestCommand(words: string[], ctx: RequestCommandContext): Promise<void> {
  const { deps, client, command, reply } = ctx;
  if (!deps.requests?.service) return reply.send(buildNoticeMessage(notSetUp(deps)));
  const refusal = nowhereToGo(deps);
  if (refusal) return reply.send(buildNoticeMessage(refusal));
  const opened = await openRequestModal(deps, client, command.trigger_id, command.user_id, 'command', words);
  if (!opened) await reply.send(buildNoticeMessage('Slack would not open the request form in time; please try again.'));
}

export async function runRequestsCommand(ctx: RequestCommandContext): Promise<void> {
  const { deps, command, reply } = ctx;
  const service = deps.requests?.service;
  if (!service) return reply.send(buildNoticeMessage(notSetUp(deps)));
  const mine = await service.mine(command.user_id);
  await reply.send(buildMyRequestsMessage(mine, await service.placesOf(mine)));
}
