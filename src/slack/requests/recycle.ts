/**
 * "Free a seat…" after approving a request for a full transferable pool: the existing assign form,
 * prefilled with the pool and the requester's e-mail, where ticking "Free a seat" leads to the
 * recycle confirmation that names who loses the seat (the recycle flow of src/slack/views/).
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { withSandboxMarker } from '../../blocks/common.js';
import { section } from '../../blocks/kit.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../gate.js';
import { openAssignModal } from '../open-modal.js';
import { parseRequestId } from './codec.js';
import { alreadyText } from './decide.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export function createRecycleButtonHandler(deps: AppDeps) {
  return async ({ ack, body, action, respond, client }: ButtonArgs): Promise<void> => {
    await ack();
    const tell = async (text: string) => {
      try {
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...withSandboxMarker({ text, blocks: [section(text)] }, deps.sandbox),
        });
      } catch (error) {
        deps.logger.warn('respond failed', { error: String(error) });
      }
    };
    const id = parseRequestId(action.value);
    const request = id ? await deps.requests?.service?.get(id) : undefined;
    if (!request) return tell(':grey_question: That request no longer exists.');
    const verdict = await authorize(deps, client, body.user.id, 'admin');
    if (!verdict.allowed) return tell(`:no_entry_sign: ${verdict.text}`);
    if (request.status !== 'approved') return tell(alreadyText(request));
    const opened = await openAssignModal(
      deps,
      client,
      { triggerId: body.trigger_id, channelId: body.channel?.id },
      { poolId: request.poolId, email: request.requesterEmail },
    );
    if (!opened) await tell(':x: Slack would not open the form; please click Free a seat… again.');
  };
}
