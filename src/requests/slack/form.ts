/**
 * The request form (design.md section 2, shapes 2 and 3): opened by `/licenses request`, the Home
 * button and the global shortcut; submitted, checked without a licensing call (inline errors), then
 * the request is created by the service and the modal shows what happens next.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction, webApi } from '@slack/bolt';
import { RequestCallbackId, RequestInputId } from '../../kernel/blocks/ids.js';
import { buildLoadingModal } from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { isId } from '../../kernel/domain/ids.js';
import type { Pool } from '../../kernel/domain/types.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { authorizeRequester } from '../../kernel/slack/gate.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { presentError } from '../../kernel/slack/present.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { markedAck, openView, updateView } from '../../kernel/slack/slack-io.js';
import { createRefusalText } from '../blocks/request-outcome.js';
import { buildRequestFormModal, buildRequestInfoModal, REQUEST_TITLE } from '../blocks/requests.js';
import { neededByProblem, type RequestSource, reasonProblem } from '../domain/requests.js';
import { encodeFormMeta, parseFormMeta } from './codec.js';

type Client = webApi.WebClient;

/** The pool the command's words name: a pool id, or the one running pool whose course title holds every word. */
export function prefillPool(pools: readonly Pool[], words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  const first = words[0]?.replace(/^#/, '');
  if (words.length === 1 && isId(first) && pools.some((p) => p.id === first)) return first;
  const wanted = words.map((w) => w.toLowerCase());
  const matches = pools.filter((p) => wanted.every((w) => p.course.title.toLowerCase().includes(w)));
  // Of a course's pools, the one with the most free seats.
  return [...matches].sort((a, b) => b.availableLicenses - a.availableLicenses)[0]?.id;
}

/**
 * Opens the form after the requester check. A refusal or a missing set-up is a small modal of its
 * own. False when Slack would not open the modal (an expired trigger_id).
 */
export async function openRequestModal(
  deps: AppDeps,
  client: Client,
  triggerId: string,
  userId: string,
  source: Exclude<RequestSource, 'workflow'>,
  words: readonly string[] = [],
): Promise<boolean> {
  const service = deps.requests?.service;
  if (!service) {
    return Boolean(await openView(deps, client, triggerId, buildRequestInfoModal(notSetUp(deps))));
  }
  const verdict = await authorizeRequester(deps, client, userId);
  const refusal = verdict.allowed ? nowhereToGo(deps) : verdict.text;
  if (refusal) {
    return Boolean(await openView(deps, client, triggerId, buildRequestInfoModal(`:no_entry_sign: ${refusal}`)));
  }
  const viewId = await openView(
    deps,
    client,
    triggerId,
    buildLoadingModal(RequestCallbackId.info, REQUEST_TITLE, 'Reading the courses', limitWait(deps)),
  );
  if (!viewId) return false;
  try {
    const pools = await service.pools();
    const poolId = prefillPool(pools, words);
    await updateView(
      deps,
      client,
      viewId,
      buildRequestFormModal({ pools, poolId, privateMetadata: encodeFormMeta(source), now: deps.now() }),
    );
  } catch (error) {
    deps.logger.warn('could not fill the request form', { error: String(error) });
    await updateView(deps, client, viewId, buildRequestInfoModal(`:x: ${escapeMrkdwn(presentError(error, 'pool'))}`));
  }
  return true;
}

/**
 * Where the cards would go: REQUESTS_CHANNEL, else the users and user groups' members of LICENSE_ADMINS. With neither (the
 * workspace's admins are the license admins, and Slack has no list of them to DM), a request would
 * reach nobody, so none is taken.
 */
export function nowhereToGo(deps: AppDeps): string | undefined {
  const listed = (deps.roles.adminUsers?.() ?? []).length + (deps.roles.adminGroups?.() ?? []).length;
  if (deps.requests?.channel || listed > 0) return undefined;
  return `Course requests have nobody to go to yet. Please ask ${deps.roles.whoToAsk()} to set REQUESTS_CHANNEL (or list the license admins in LICENSE_ADMINS).`;
}

export function notSetUp(deps: AppDeps): string {
  return `:information_source: Course requests are not set up in this License Desk. Please ask ${deps.roles.whoToAsk()} for a license.`;
}

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

export function createRequestSubmitHandler(deps: AppDeps) {
  return async ({ ack, view, body, client }: ViewArgs): Promise<void> => {
    const answer = markedAck(deps, ack);
    const values = view.state.values;
    const poolId = values[RequestInputId.pool.block]?.[RequestInputId.pool.action]?.selected_option?.value ?? undefined;
    const reason = values[RequestInputId.reason.block]?.[RequestInputId.reason.action]?.value?.trim() || undefined;
    const neededBy =
      values[RequestInputId.neededBy.block]?.[RequestInputId.neededBy.action]?.selected_date || undefined;
    const errors: Record<string, string> = {};
    if (!poolId || !isId(poolId)) errors[RequestInputId.pool.block] = 'Please pick a course.';
    const tooLong = reason ? reasonProblem(reason) : undefined;
    if (tooLong) errors[RequestInputId.reason.block] = tooLong;
    const dateProblem = neededBy ? neededByProblem(neededBy, deps.now()) : undefined;
    if (dateProblem) errors[RequestInputId.neededBy.block] = dateProblem;
    if (Object.keys(errors).length > 0 || !poolId) {
      await answer({ response_action: 'errors', errors });
      return;
    }
    await answer({
      response_action: 'update',
      view: buildRequestInfoModal(':hourglass_flowing_sand: Sending your request…'),
    });
    const show = (text: string) => updateView(deps, client, view.id, buildRequestInfoModal(text));
    const service = deps.requests?.service;
    if (!service) return void (await show(notSetUp(deps)));
    const userId = body.user.id;
    const verdict = await authorizeRequester(deps, client, userId);
    const refusal = verdict.allowed ? nowhereToGo(deps) : verdict.text;
    if (refusal) return void (await show(`:no_entry_sign: ${refusal}`));
    const email = await resolveUserEmail(client, userId);
    if ('problem' in email) {
      return void (await show(
        `:no_entry_sign: I need your Slack e-mail to send the license to, and could not read it: ${escapeMrkdwn(email.problem)} Please ask ${deps.roles.whoToAsk()} instead.`,
      ));
    }
    try {
      const result = await service.create({
        requester: userId,
        requesterEmail: email.email,
        ...(email.name ? { requesterName: email.name } : {}),
        poolId,
        ...(reason ? { reason } : {}),
        ...(neededBy ? { neededBy } : {}),
        source: parseFormMeta(view.private_metadata),
      });
      if (!result.ok) return void (await show(`:no_entry_sign: ${createRefusalText(result.refusal)}`));
      await show(
        `:inbox_tray: Your request for *${escapeTruncated(result.request.courseTitle, 200)}* was sent to the license admins. You'll be told by DM when it is decided; \`/licenses requests\` shows it and lets you cancel it.`,
      );
    } catch (error) {
      deps.logger.warn('could not create the course request', { error: String(error) });
      await show(`:x: ${escapeMrkdwn(presentError(error, 'pool'))} Nothing was sent; please try again.`);
    }
  };
}
