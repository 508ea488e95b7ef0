/**
 * Block Kit of self-service course requests: the form, the approvers' card, the requester's DMs and
 * list, the deny-reason modal, the full-pool choice and what an approver's click came to. Pure: data in, blocks out; every string from a
 * person or the API is escaped.
 */
import type { CourseRequest, DecideOutcome } from '../domain/requests.js';
import { MAX_REASON } from '../domain/requests.js';
import type { Pool } from '../domain/types.js';
import { RequestActionId, RequestCallbackId, RequestInputId } from './ids.js';
import { actions, type Block, button, context, header, type SlackMessage, section } from './kit.js';
import { LIMITS } from './limits.js';
import { compactView, input, type ModalView, modal, option } from './modal-kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMoment, truncate } from './mrkdwn.js';

export const REQUEST_TITLE = 'Request a course';

const when = (iso: string) => slackMoment(iso);
const day = (iso: string) => dayText(iso) || escapeTruncated(iso, 40);

function seatsWords(pool: Pool): string {
  if (pool.availableLicenses <= 0) return "full: you'll join the waitlist";
  return pool.availableLicenses === 1 ? '1 free seat' : `${pool.availableLicenses} free seats`;
}

export interface RequestFormInput {
  pools: readonly Pool[];
  /** Preselected pool, when the command named one or its words matched one course. */
  poolId?: string | undefined;
  privateMetadata: string;
}

export function buildRequestFormModal(inputData: RequestFormInput): ModalView {
  const options = inputData.pools
    .slice(0, LIMITS.selectOptions)
    .map((p) => option(`${p.course.title} · pool ${p.id}`, p.id, seatsWords(p)));
  const initial = options.find((o) => o.value === inputData.poolId);
  if (options.length === 0) {
    return buildRequestInfoModal(':information_source: No course is open for requests right now.');
  }
  return modal({
    callbackId: RequestCallbackId.form,
    title: REQUEST_TITLE,
    submit: 'Send request',
    close: 'Cancel',
    privateMetadata: inputData.privateMetadata,
    blocks: compactView([
      section(
        'Ask the license admins for a seat in a course. They approve or deny it here in Slack, and you are told by DM.',
      ),
      input(
        RequestInputId.pool.block,
        'Course',
        {
          type: 'static_select',
          action_id: RequestInputId.pool.action,
          options,
          placeholder: { type: 'plain_text', text: 'Pick a course' },
          ...(initial ? { initial_option: initial } : {}),
        },
        { hint: 'Running pools only, with their free seats.' },
      ),
      input(
        RequestInputId.reason.block,
        'Why',
        {
          type: 'plain_text_input',
          action_id: RequestInputId.reason.action,
          max_length: MAX_REASON,
          placeholder: { type: 'plain_text', text: 'What you need the course for (optional)' },
        },
        { optional: true },
      ),
      input(
        RequestInputId.neededBy.block,
        'Needed by',
        { type: 'datepicker', action_id: RequestInputId.neededBy.action },
        { optional: true },
      ),
    ]),
  });
}

/** Loading, working and result views of the request form. `text` is mrkdwn, escaped by the caller. */
export function buildRequestInfoModal(text: string): ModalView {
  return modal({
    callbackId: RequestCallbackId.info,
    title: REQUEST_TITLE,
    blocks: [section(truncate(text, LIMITS.sectionText))],
  });
}

export function buildDenyReasonModal(request: CourseRequest): ModalView {
  return modal({
    callbackId: RequestCallbackId.denyForm,
    title: 'Deny the request',
    submit: 'Deny',
    close: 'Back',
    privateMetadata: request.id,
    blocks: [
      section(`Deny <@${request.requester}>'s request for *${escapeTruncated(request.courseTitle, 200)}*?`),
      input(
        RequestInputId.denyReason.block,
        'Reason',
        {
          type: 'plain_text_input',
          action_id: RequestInputId.denyReason.action,
          max_length: MAX_REASON,
          placeholder: { type: 'plain_text', text: 'Told to the requester (optional)' },
        },
        { optional: true },
      ),
    ],
  });
}

function statusLine(r: CourseRequest): string {
  const by = r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) ? `<@${r.decidedBy}>` : 'License Desk';
  const at = r.decidedAt ? ` on ${when(r.decidedAt)}` : '';
  switch (r.status) {
    case 'pending':
      return ':hourglass_flowing_sand: Waiting for a license admin.';
    case 'approved':
      return `:white_check_mark: Approved by ${by}${at}; the pool is full, a seat is being found.`;
    case 'waitlisted':
      return `:white_check_mark: Approved by ${by}${at}; on the waitlist for a seat.`;
    case 'assigned':
      return `:white_check_mark: Approved by ${by}${at}; license \`${escapeMrkdwn(r.licenseId ?? '')}\` assigned${r.endDate ? `, ends ${day(r.endDate)}` : ''}.`;
    case 'denied':
      return `:no_entry_sign: Denied by ${by}${at}${r.denyReason ? `: “${escapeTruncated(r.denyReason, MAX_REASON)}”` : '.'}`;
    case 'expired':
      return `:alarm_clock: Expired${at}: nobody decided in time.`;
    case 'cancelled':
      return `:heavy_multiplication_x: Cancelled by the requester${at}.`;
  }
}

export interface RequestCardInput {
  request: CourseRequest;
  /** Free seats when the card was posted; omitted on later updates. */
  freeSeats?: number | undefined;
}

/** The approvers' card: who asks for what and why, with Approve and Deny while undecided. */
export function buildRequestCardMessage({ request: r, freeSeats }: RequestCardInput): SlackMessage {
  const seats =
    freeSeats === undefined
      ? ''
      : freeSeats <= 0
        ? ' · *full*'
        : ` · ${freeSeats} free seat${freeSeats === 1 ? '' : 's'}`;
  const who = `<@${r.requester}> (${escapeTruncated(r.requesterEmail, 254)})`;
  const blocks: (Block | undefined)[] = [
    header('Course request'),
    section(`${who} asks for *${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeMrkdwn(r.poolId)}\`)${seats}`),
    r.reason ? section(`*Why:* ${escapeTruncated(r.reason, MAX_REASON)}`) : undefined,
    context(
      [`Requested ${when(r.createdAt)}`, r.neededBy ? `needed by ${day(r.neededBy)}` : undefined, `request ${r.id}`]
        .filter(Boolean)
        .join(' · '),
    ),
    r.status === 'pending'
      ? actions([
          button(RequestActionId.approve, 'Approve', r.id, 'primary'),
          button(RequestActionId.deny, 'Deny…', r.id, 'danger'),
        ])
      : section(statusLine(r)),
  ];
  const text = `Course request: ${escapeTruncated(r.courseTitle, 200)} for ${who}`;
  return { text, blocks: blocks.filter((b): b is Block => b !== undefined) };
}

/** A reminder under the card (thread reply): nobody has decided yet. */
export function buildRequestReminderMessage(r: CourseRequest, expiresAt: string): SlackMessage {
  const text = `:bell: Reminder: <@${r.requester}>'s request for *${escapeTruncated(r.courseTitle, 200)}* is still waiting for a decision; it expires ${when(expiresAt)}.`;
  return { text, blocks: [section(text)] };
}

/** What the requester is told by DM at each step. */
export function buildRequestUpdateMessage(r: CourseRequest, extra: { place?: number | undefined } = {}): SlackMessage {
  const course = `*${escapeTruncated(r.courseTitle, 200)}*`;
  const by = r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) ? `<@${r.decidedBy}>` : 'a license admin';
  let text: string;
  switch (r.status) {
    case 'pending':
      text = `:inbox_tray: Your request for ${course} was received; the license admins have been asked. You'll hear here when it is decided. (\`/licenses requests\` shows it.)`;
      break;
    case 'approved':
      text = `:white_check_mark: Your request for ${course} was approved by ${by}; a seat is being found.`;
      break;
    case 'waitlisted':
      text = `:white_check_mark: Your request for ${course} was approved by ${by}, but the pool is full: you are on the waitlist${extra.place ? `, number ${extra.place}` : ''}. You'll get the first free seat in order.`;
      break;
    case 'assigned':
      text = `:tada: Your request for ${course} was approved by ${by}: license \`${escapeMrkdwn(r.licenseId ?? '')}\` is yours${r.endDate ? ` until ${day(r.endDate)}` : ''}. Check your e-mail (${escapeTruncated(r.requesterEmail, 254)}) for access.`;
      break;
    case 'denied':
      text = `:no_entry_sign: Your request for ${course} was denied by ${by}${r.denyReason ? `: “${escapeTruncated(r.denyReason, MAX_REASON)}”` : '.'}`;
      break;
    case 'expired':
      text = `:alarm_clock: Your request for ${course} expired: nobody decided in time. Ask again with \`/licenses request\` if you still need it.`;
      break;
    case 'cancelled':
      text = `:heavy_multiplication_x: You cancelled your request for ${course}.`;
      break;
  }
  return { text, blocks: [section(text)] };
}

/** `/licenses requests`: the member's own requests, newest first, with Cancel while undecided. */
export function buildMyRequestsMessage(requests: readonly CourseRequest[]): SlackMessage {
  if (requests.length === 0) {
    return {
      text: 'You have no course requests.',
      blocks: [section('You have no course requests. Ask for a course with `/licenses request`.')],
    };
  }
  const shown = [...requests].reverse().slice(0, 20);
  const blocks: Block[] = [header('Your course requests')];
  for (const r of shown) {
    const line = `*${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeMrkdwn(r.poolId)}\`) · asked ${when(r.createdAt)}\n${statusLine(r)}`;
    blocks.push(
      r.status === 'pending'
        ? section(line, button(RequestActionId.cancel, 'Cancel request', r.id, 'danger'))
        : section(line),
    );
  }
  if (requests.length > shown.length) blocks.push(context(`The 20 newest of ${requests.length}.`));
  return { text: `Your course requests (${requests.length})`, blocks };
}

/** To the approver when the pool is full: recycle (transferable pools) or the waitlist, or deny. */
export function buildFullPoolChoiceMessage(
  r: CourseRequest,
  choice: { transferable: boolean; waitlist: boolean },
): SlackMessage {
  const text = `Pool \`${escapeMrkdwn(r.poolId)}\` of *${escapeTruncated(r.courseTitle, 200)}* is full, so no license was assigned yet. ${
    choice.transferable ? 'Free a seat (a confirmation names who loses it)' : 'This pool cannot recycle seats'
  }${choice.waitlist ? ', or put the request on the waitlist: it gets the first seat that frees up.' : '.'}`;
  const buttons = [
    choice.transferable ? button(RequestActionId.recycle, 'Free a seat…', r.id) : undefined,
    choice.waitlist ? button(RequestActionId.waitlist, 'Add to the waitlist', r.id, 'primary') : undefined,
  ].filter((b) => b !== undefined);
  return { text, blocks: [section(text), ...(buttons.length > 0 ? [actions(buttons)] : [])] };
}

/** One sentence to whoever clicked (mrkdwn already escaped where it holds outside text). */
export function buildRequestNoteMessage(mrkdwn: string): SlackMessage {
  return { text: mrkdwn, blocks: [section(mrkdwn)] };
}

const ALREADY: Record<CourseRequest['status'], string> = {
  pending: 'is still pending',
  approved: 'was already approved',
  waitlisted: 'was already approved',
  assigned: 'was already approved',
  denied: 'was already denied',
  expired: 'has already expired',
  cancelled: 'was already cancelled by the requester',
};

/** "This request was already approved by @x on …": what a late click learns. */
export function buildRequestAlreadyMessage(r: CourseRequest): SlackMessage {
  const by =
    r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) && r.status !== 'cancelled' ? ` by <@${r.decidedBy}>` : '';
  const at = r.decidedAt ? ` on ${when(r.decidedAt)}` : '';
  return buildRequestNoteMessage(`:information_source: This request ${ALREADY[r.status]}${by}${at}.`);
}

/** What an approver's Approve or Deny came to. */
export function buildRequestDecisionMessage(outcome: DecideOutcome): SlackMessage {
  switch (outcome.kind) {
    case 'not-found':
      return buildRequestNoteMessage(':grey_question: That request no longer exists.');
    case 'own':
      return buildRequestNoteMessage(':no_entry_sign: You can’t decide your own request; another license admin will.');
    case 'already':
      return buildRequestAlreadyMessage(outcome.request);
    case 'denied':
      return buildRequestNoteMessage(
        `:no_entry_sign: Denied. <@${outcome.request.requester}> was told${outcome.request.denyReason ? ', with your reason' : ''}.`,
      );
    case 'assigned': {
      const r = outcome.request;
      const end = r.endDate ? `, ends ${day(r.endDate)}` : '';
      return buildRequestNoteMessage(
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
      return buildRequestNoteMessage(`${emoji} ${escapeMrkdwn(outcome.outcome.text)}${still}`);
    }
  }
}

/** "Add to the waitlist" came to this: the place, or why not. */
export function buildRequestWaitlistedMessage(result: { ok: true; place: number } | { ok: false; text: string }) {
  return buildRequestNoteMessage(
    result.ok
      ? `:white_check_mark: On the waitlist, number ${result.place}. The requester was told.`
      : `:no_entry_sign: ${escapeMrkdwn(result.text)}`,
  );
}

/** A requester's Cancel: their list as it is now, under what happened. */
export function buildRequestCancelledMessage(requests: readonly CourseRequest[]): SlackMessage {
  const list = buildMyRequestsMessage(requests);
  return { text: list.text, blocks: [section(':heavy_multiplication_x: Request cancelled.'), ...list.blocks] };
}
