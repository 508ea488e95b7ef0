/**
 * "Free a seat…" after approving a request for a full transferable pool: the existing assign form,
 * prefilled with the pool and the requester's e-mail and Slack name, where ticking "Free a seat" leads to the
 * recycle confirmation that names who loses the seat (the recycle flow of src/slack/views/). The form
 * carries the request's id: its write goes through the request service (freeSeat), which moves the
 * request to 'assigning' first, so the waitlist, Deny and Cancel are refused while the seat is freed.
 */

import { openAssignModal } from '../../changes/index.js';
import { type ClickArgs, onClick, tellClicker } from '../../kernel/slack/gate.js';
import type { Surface } from '../../kernel/slack/state.js';
import { buildRequestAlreadyMessage, buildRequestNoteMessage } from '../blocks/requests.js';
import { parseRequestId } from './codec.js';
import { unlessUnreadable } from './decide.js';

export function createRecycleButtonHandler(s: Surface) {
  return onClick(s, { need: 'admin' }, (args) => unlessUnreadable(s, args, () => openSeatForm(s, args)));
}

async function openSeatForm(s: Surface, args: ClickArgs): Promise<void> {
  const id = parseRequestId(args.action.value);
  const request = id ? await s.deps.requests?.service.get(id) : undefined;
  if (!request) return tellClicker(s, args, buildRequestNoteMessage(':grey_question: That request no longer exists.'));
  if (request.status !== 'approved') return tellClicker(s, args, buildRequestAlreadyMessage(request));
  const opened = await openAssignModal(
    s,
    args.client,
    // The request goes with the form: its submission frees the seat through the request's own path.
    { triggerId: args.body.trigger_id, channelId: args.body.channel?.id, requestId: request.id },
    {
      poolId: request.poolId,
      email: request.requesterEmail,
      ...(request.requesterName ? { name: request.requesterName } : {}),
    },
  );
  if (!opened) {
    await tellClicker(
      s,
      args,
      buildRequestNoteMessage(':x: Slack would not open the form; please click Free a seat… again.'),
    );
  }
}
