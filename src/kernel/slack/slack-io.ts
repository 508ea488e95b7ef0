/**
 * The Slack calls of the change flows, each wrapped so a Slack failure is logged and never thrown
 * into Bolt (which would answer 500 after the ack). views.* need no scope; chat.postEphemeral needs
 * chat:write and a channel the bot can post in (a failed reply is logged; the modal shows the result anyway).
 */
import type { AckFn, ViewResponseAction, webApi } from '@slack/bolt';
import { withSandboxMarker, withSandboxMarkerView } from '../blocks/common.js';
import type { ModalView } from '../blocks/modal-kit.js';
import { buildOutcomeMessage, type Outcome } from '../blocks/outcome.js';
import type { AppDeps } from './deps.js';

type Client = webApi.WebClient;

/** views.open with the loading view, at once after ack (the trigger_id lives 3 s). */
export async function openView(
  deps: AppDeps,
  client: Client,
  triggerId: string,
  view: ModalView,
): Promise<string | undefined> {
  try {
    const res = await client.views.open({ trigger_id: triggerId, view: withSandboxMarkerView(view, deps.sandbox) });
    return res.view?.id;
  } catch (error) {
    deps.logger.warn('views.open failed', { error: String(error) });
    return undefined;
  }
}

/** False when Slack would not update the view (e.g. not_found: the person closed the modal). */
export async function updateView(
  deps: AppDeps,
  client: Client,
  viewId: string,
  view: ModalView,
  /** The hash of the view as it was read: Slack refuses the update when the view changed since. */
  hash?: string,
): Promise<boolean> {
  try {
    await client.views.update({
      view_id: viewId,
      view: withSandboxMarkerView(view, deps.sandbox),
      ...(hash ? { hash } : {}),
    });
    return true;
  } catch (error) {
    deps.logger.warn('views.update failed', { viewId, error: String(error) });
    return false;
  }
}

/**
 * A view_submission's ack with the sandbox marker on the view it sends (response_action update or
 * push); errors and clear pass as they are. Each submit handler wraps its ack once, at the top.
 */
export function markedAck(deps: AppDeps, ack: AckFn<ViewResponseAction>): AckFn<ViewResponseAction> {
  if (!deps.sandbox) return ack;
  return (response) =>
    ack(response && 'view' in response ? { ...response, view: withSandboxMarkerView(response.view, true) } : response);
}

/** The one-sentence reply, visible only to the person who made the change; false when not posted. */
export async function replyEphemeral(
  deps: AppDeps,
  client: Client,
  channel: string | undefined,
  user: string,
  outcome: Outcome,
): Promise<boolean> {
  if (!channel) return false;
  const message = withSandboxMarker(buildOutcomeMessage(outcome), deps.sandbox);
  try {
    await client.chat.postEphemeral({ channel, user, text: message.text, blocks: message.blocks });
    return true;
  } catch (error) {
    deps.logger.warn('could not post the ephemeral reply', { channel, error: String(error) });
    return false;
  }
}
