/**
 * The approvers' buttons (Approve, Deny…, Add to the waitlist) and the requester's Cancel: parse the
 * request id (codec.ts), the one gate (deciding needs 'admin'; Cancel is the requester's own, checked
 * by the service against the stored request), one use case, one builder back to whoever clicked
 * (ephemeral: the card itself is updated on every copy by the service's events).
 */

import { decidesFor } from '../../approvers/index.js';
import { showHome } from '../../home/index.js';
import { RequestInputId } from '../../kernel/blocks/ids.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { type ClickArgs, onClick, onSubmit, type SubmitArgs, tellClicker } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import {
  buildCancelRefusedMessage,
  buildDenyReasonModal,
  buildRequestAlreadyMessage,
  buildRequestCancelledMessage,
  buildRequestDecisionMessage,
  buildRequestInfoModal,
  buildRequestNoteMessage,
  buildRequestUnreadableMessage,
  buildRequestWaitlistedMessage,
  DENY_TITLE,
  REQUEST_UNREADABLE_TEXT,
} from '../blocks/requests.js';
import { type CourseRequest, reasonProblem, UnreadableRequestError } from '../domain/requests.js';
import { requestChangedKey } from '../services/kernel.js';
import { parseRequestId } from './codec.js';

export const NO_REQUEST = buildRequestNoteMessage(
  ':grey_question: That button does not name a request; open the card again.',
);

/** The refused attempt worth recording: which step, on which request (a well-formed id only). */
const refusalOf = (action: AuditEntry['action']) => (args: ClickArgs) => {
  const id = parseRequestId(args.action.value);
  return { action, ...(id ? { target: { requestId: id } } : {}) };
};

/** How long an approver's answer waits for the requester's DM to go out, to say "they were told". */
const TELL_WAIT_MS = 3_000;

/**
 * Was the requester told of the request's new state? The outbox sends it right after the commit; this
 * waits for that (at most TELL_WAIT_MS), so the approver reads "they were told" only once they were.
 */
async function toldYet(s: Surface, r: CourseRequest): Promise<boolean> {
  const outbox = s.deps.outbox;
  if (!outbox) return false;
  return outbox.delivered(requestChangedKey(r), TELL_WAIT_MS).catch(() => false);
}

/**
 * A click on a request whose stored record cannot be read (the store names it in the log): the clicker
 * is told so plainly, and nothing was changed.
 */
export async function unlessUnreadable(s: Surface, args: ClickArgs, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof UnreadableRequestError)) throw error;
    await tellClicker(s, args, buildRequestUnreadableMessage());
  }
}

/**
 * Whom `user` decides request `id` for: an approver of its pool who is away and delegated to them
 * (docs/roles-and-approvals.md); undefined without such a delegation, or when the request is unknown.
 */
async function decidingFor(s: Surface, client: ClickArgs['client'], user: string, id: string | undefined) {
  const request = id ? await s.deps.requests?.service.get(id).catch(() => undefined) : undefined;
  return request ? decidesFor(s.deps, client, user, request.poolId) : undefined;
}

/** A delegate's click: no role of their own, but an accepted delegation for the request's pool. */
const delegatedClick = (s: Surface) => async (args: ClickArgs) =>
  (await decidingFor(s, args.client, args.body.user.id, parseRequestId(args.action.value))) !== undefined;

const delegatedSubmit = (s: Surface) => async (args: SubmitArgs) =>
  (await decidingFor(s, args.client, args.body.user.id, parseRequestId(args.view.private_metadata))) !== undefined;

/** Approve: the first decision wins; the assign use case runs on fresh reads. */
export function createApproveButtonHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: refusalOf('approved'), orElse: delegatedClick(s) }, (args) =>
    unlessUnreadable(s, args, () => approve(s, args)),
  );
}

async function approve(s: Surface, args: ClickArgs): Promise<void> {
  const id = parseRequestId(args.action.value);
  if (!id) return tellClicker(s, args, NO_REQUEST);
  const forWhom = await decidingFor(s, args.client, args.body.user.id, id);
  const outcome = await s.deps.requests?.service.approve(id, args.body.user.id, forWhom);
  const told = outcome?.kind === 'assigned' && (await toldYet(s, outcome.request));
  await tellClicker(s, args, outcome ? buildRequestDecisionMessage(outcome, told) : NO_REQUEST);
}

/** Add to the waitlist, after approving for a full pool. */
export function createWaitlistButtonHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: refusalOf('waitlisted'), orElse: delegatedClick(s) }, (args) =>
    unlessUnreadable(s, args, async () => {
      const id = parseRequestId(args.action.value);
      const service = s.deps.requests?.service;
      if (!id || !service) return tellClicker(s, args, NO_REQUEST);
      await tellClicker(s, args, buildRequestWaitlistedMessage(await service.toWaitlist(id, args.body.user.id)));
    }),
  );
}

/** Deny…: the optional-reason modal, while the request is undecided and not the clicker's own. */
export function createDenyButtonHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: refusalOf('denied'), orElse: delegatedClick(s) }, (args) =>
    unlessUnreadable(s, args, () => openDeny(s, args)),
  );
}

async function openDeny(s: Surface, args: ClickArgs): Promise<void> {
  const id = parseRequestId(args.action.value);
  const request = id ? await s.deps.requests?.service.get(id) : undefined;
  if (!request) return tellClicker(s, args, buildRequestDecisionMessage({ kind: 'not-found' }));
  if (request.status !== 'pending') return tellClicker(s, args, buildRequestAlreadyMessage(request));
  if (request.requester === args.body.user.id) {
    return tellClicker(s, args, buildRequestDecisionMessage({ kind: 'own', request }));
  }
  const opened = await openView(s.deps, args.client, args.body.trigger_id, buildDenyReasonModal(request));
  if (!opened) {
    await tellClicker(s, args, buildRequestNoteMessage(':x: Slack would not open the form; please click Deny… again.'));
  }
}

/** The deny modal's submission: the optional reason, then the use case. */
export function createDenySubmitHandler(s: Surface) {
  const refused = (sentence: string) => ({
    response_action: 'update' as const,
    view: buildRequestInfoModal(`:no_entry_sign: ${escapeMrkdwn(sentence)}`, DENY_TITLE),
  });
  return onSubmit(
    s,
    { need: 'admin', title: DENY_TITLE, audit: { action: 'denied' }, view: refused, orElse: delegatedSubmit(s) },
    async ({ ack, view, body, client }) => {
      const id = parseRequestId(view.private_metadata);
      const reason =
        view.state.values[RequestInputId.denyReason.block]?.[RequestInputId.denyReason.action]?.value?.trim() ||
        undefined;
      const tooLong = reason ? reasonProblem(reason) : undefined;
      if (tooLong) {
        await ack({ response_action: 'errors', errors: { [RequestInputId.denyReason.block]: tooLong } });
        return;
      }
      await ack({
        response_action: 'update',
        view: buildRequestInfoModal(':hourglass_flowing_sand: Denying…', DENY_TITLE),
      });
      const show = (text: string) => updateView(s.deps, client, view.id, buildRequestInfoModal(text, DENY_TITLE));
      const service = s.deps.requests?.service;
      if (!id || !service) return void (await show(':grey_question: That form does not name a request.'));
      try {
        const forWhom = await decidingFor(s, client, body.user.id, id);
        const outcome = await service.deny(id, body.user.id, reason, forWhom);
        const told = outcome.kind === 'denied' && (await toldYet(s, outcome.request));
        await show(buildRequestDecisionMessage(outcome, told).text);
      } catch (error) {
        if (!(error instanceof UnreadableRequestError)) throw error;
        await show(`:warning: ${REQUEST_UNREADABLE_TEXT}`);
      }
    },
  );
}

/**
 * Cancel in `/licenses requests` and in App Home's "Your requests": any member may click, so no role
 * is asked; the service cancels only the clicker's own request, and only while it is undecided or
 * waiting on the waitlist. The clicker sees it where they clicked: the list replaced, or Home
 * published again with what happened on top.
 */
export function createCancelButtonHandler(s: Surface) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const user = args.body.user.id;
    const onHome = !args.body.response_url && args.body.container?.type === 'view';
    await unlessUnreadable(s, args, async () => {
      const id = parseRequestId(args.action.value);
      const service = s.deps.requests?.service;
      if (!id || !service) return tellClicker(s, args, NO_REQUEST);
      const result = await service.cancel(id, user);
      if (result.kind !== 'cancelled') {
        const refused = buildCancelRefusedMessage(result);
        if (onHome) return showHome(s.deps, args.client, user, { note: refused.text });
        return tellClicker(s, args, refused);
      }
      if (onHome) {
        const course = escapeTruncated(result.request.courseTitle, 200);
        return showHome(s.deps, args.client, user, {
          note: `:heavy_multiplication_x: You cancelled your request for *${course}*.`,
        });
      }
      const mine = await service.mine(user);
      await replaceList(s, args, buildRequestCancelledMessage(mine, await service.placesOf(mine)));
    });
  };
}

/** The list replaces the one clicked (or comes by DM without a response_url). */
async function replaceList(s: Surface, args: ClickArgs, message: SlackMessage): Promise<void> {
  if (!args.body.response_url) return tellClicker(s, args, message);
  await createReplier(args.respond, s.deps, false).send(message);
}
