/**
 * The approvers' buttons (Approve, Deny…, the full-pool choice) and the requester's Cancel: parse the
 * request id, the one gate (deciding needs 'admin'), one use case, one message back to whoever
 * clicked (ephemeral: the card itself is updated on every copy by the service's events).
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  RespondFn,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { withSandboxMarker } from '../../blocks/common.js';
import { RequestInputId } from '../../blocks/ids.js';
import type { SlackMessage } from '../../blocks/kit.js';
import { section } from '../../blocks/kit.js';
import { escapeMrkdwn, slackDate } from '../../blocks/mrkdwn.js';
import {
  buildDenyReasonModal,
  buildFullPoolChoiceMessage,
  buildMyRequestsMessage,
  buildRequestInfoModal,
} from '../../blocks/requests.js';
import type { CourseRequest } from '../../domain/requests.js';
import type { DecideOutcome } from '../../services/requests/service.js';
import type { AppDeps } from '../deps.js';
import { authorize } from '../gate.js';
import { markedAck, openView, updateView } from '../slack-io.js';
import { parseRequestId } from './codec.js';
import { notSetUp } from './form.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const note = (text: string): SlackMessage => ({ text, blocks: [section(text)] });

async function tell(deps: AppDeps, respond: RespondFn, message: SlackMessage, replace = false): Promise<void> {
  try {
    await respond({
      response_type: 'ephemeral',
      replace_original: replace,
      ...withSandboxMarker(message, deps.sandbox),
    });
  } catch (error) {
    deps.logger.warn('respond failed', { error: String(error) });
  }
}

const VERB: Record<CourseRequest['status'], string> = {
  pending: 'is still pending',
  approved: 'was already approved',
  waitlisted: 'was already approved',
  assigned: 'was already approved',
  denied: 'was already denied',
  expired: 'has already expired',
  cancelled: 'was already cancelled by the requester',
};

/** "This request was already approved by @x on …": what a late click learns. */
export function alreadyText(r: CourseRequest): string {
  const by =
    r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) && r.status !== 'cancelled' ? ` by <@${r.decidedBy}>` : '';
  const at = r.decidedAt ? ` on ${slackDate(r.decidedAt, '{date_short} {time}')}` : '';
  return `:information_source: This request ${VERB[r.status]}${by}${at}.`;
}

export function decideText(outcome: DecideOutcome): SlackMessage {
  switch (outcome.kind) {
    case 'not-found':
      return note(':grey_question: That request no longer exists.');
    case 'own':
      return note(':no_entry_sign: You can’t decide your own request; another license admin will.');
    case 'already':
      return note(alreadyText(outcome.request));
    case 'denied':
      return note(
        `:no_entry_sign: Denied. <@${outcome.request.requester}> was told${outcome.request.denyReason ? ', with your reason' : ''}.`,
      );
    case 'assigned': {
      const r = outcome.request;
      const end = r.endDate ? `, ends ${slackDate(r.endDate)}` : '';
      return note(
        `:white_check_mark: Approved: license \`${escapeMrkdwn(r.licenseId ?? '')}\` assigned to <@${r.requester}>${end}. They were told.`,
      );
    }
    case 'full':
      return buildFullPoolChoiceMessage(outcome.request, outcome);
    case 'not-assigned': {
      const emoji =
        outcome.outcome.kind === 'refused'
          ? ':no_entry_sign:'
          : outcome.outcome.kind === 'failed'
            ? ':x:'
            : ':grey_question:';
      const still = outcome.request.status === 'pending' ? ' The request is still pending.' : '';
      return note(`${emoji} ${escapeMrkdwn(outcome.outcome.text)}${still}`);
    }
  }
}

/** Approve, Deny…, Add to the waitlist: a license admin's clicks. */
export function createDecideButtonHandler(deps: AppDeps, kind: 'approve' | 'deny' | 'waitlist') {
  return async ({ ack, body, action, respond, client }: ButtonArgs): Promise<void> => {
    await ack();
    const service = deps.requests?.service;
    if (!service) return tell(deps, respond, note(notSetUp(deps)));
    const id = parseRequestId(action.value);
    if (!id)
      return tell(deps, respond, note(':grey_question: That button does not name a request; open the card again.'));
    const verdict = await authorize(deps, client, body.user.id, 'admin');
    if (!verdict.allowed) return tell(deps, respond, note(`:no_entry_sign: ${verdict.text}`));
    if (kind === 'approve') return tell(deps, respond, decideText(await service.approve(id, body.user.id)));
    if (kind === 'waitlist') {
      const result = await service.toWaitlist(id, body.user.id);
      return tell(
        deps,
        respond,
        note(
          result.ok
            ? `:white_check_mark: On the waitlist, number ${result.place}. The requester was told.`
            : `:no_entry_sign: ${escapeMrkdwn(result.text)}`,
        ),
        true,
      );
    }
    const request = await service.get(id);
    if (!request) return tell(deps, respond, decideText({ kind: 'not-found' }));
    if (request.status !== 'pending') return tell(deps, respond, note(alreadyText(request)));
    if (request.requester === body.user.id) return tell(deps, respond, decideText({ kind: 'own', request }));
    const opened = await openView(deps, client, body.trigger_id, buildDenyReasonModal(request));
    if (!opened) await tell(deps, respond, note(':x: Slack would not open the form; please click Deny… again.'));
  };
}

/** The deny modal's submission: the optional reason, then the use case. */
export function createDenySubmitHandler(deps: AppDeps) {
  return async ({ ack, view, body, client }: ViewArgs): Promise<void> => {
    const answer = markedAck(deps, ack);
    const id = parseRequestId(view.private_metadata);
    const reason =
      view.state.values[RequestInputId.denyReason.block]?.[RequestInputId.denyReason.action]?.value?.trim() ||
      undefined;
    await answer({ response_action: 'update', view: buildRequestInfoModal(':hourglass_flowing_sand: Denying…') });
    const show = (text: string) => updateView(deps, client, view.id, buildRequestInfoModal(text));
    const service = deps.requests?.service;
    if (!service) return void (await show(notSetUp(deps)));
    if (!id) return void (await show(':grey_question: That form does not name a request.'));
    const verdict = await authorize(deps, client, body.user.id, 'admin');
    if (!verdict.allowed) return void (await show(`:no_entry_sign: ${verdict.text}`));
    await show(decideText(await service.deny(id, body.user.id, reason)).text);
  };
}

/** Cancel in `/licenses requests`: only the requester, only while undecided. */
export function createCancelButtonHandler(deps: AppDeps) {
  return async ({ ack, body, action, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const service = deps.requests?.service;
    if (!service) return tell(deps, respond, note(notSetUp(deps)));
    const id = parseRequestId(action.value);
    if (!id) return tell(deps, respond, note(':grey_question: That button does not name a request.'));
    const result = await service.cancel(id, body.user.id);
    if (!result.ok) return tell(deps, respond, note(`:no_entry_sign: ${escapeMrkdwn(result.text)}`));
    const list = buildMyRequestsMessage(await service.mine(body.user.id));
    await tell(
      deps,
      respond,
      { text: list.text, blocks: [section(':heavy_multiplication_x: Request cancelled.'), ...list.blocks] },
      true,
    );
  };
}
