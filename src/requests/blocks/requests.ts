/**
 * Block Kit of self-service course requests: the form, the approvers' card, the requester's DMs and
 * list, the deny-reason modal, the full-pool choice and what an approver's click came to. Pure: data in, blocks out; every string from a
 * person or the API is escaped.
 */

import { RequestActionId, RequestCallbackId, RequestInputId } from '../../kernel/blocks/ids.js';
import { actions, type Block, button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { LIMITS } from '../../kernel/blocks/limits.js';
import { compactView, input, type ModalView, modal, option } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMoment, truncate } from '../../kernel/blocks/mrkdwn.js';
import { calendarDaysUntil } from '../../kernel/domain/time.js';
import type { Pool } from '../../kernel/domain/types.js';
import type { CancelOutcome, CourseRequest, DecideOutcome, WaitlistJoinOutcome } from '../domain/requests.js';
import { MAX_REASON, MAX_REASON_RAW } from '../domain/requests.js';
import { requestAssignText } from './request-outcome.js';

export const REQUEST_TITLE = 'Request a course';
/** The deny modal's title, and of what its submission shows. */
export const DENY_TITLE = 'Deny the request';

const when = (iso: string) => slackMoment(iso);
const day = (iso: string) => dayText(iso) || escapeTruncated(iso, 40);

function seatsWords(pool: Pool): string {
  if (pool.availableLicenses <= 0) return "full: you'll join the waitlist";
  return pool.availableLicenses === 1 ? '1 free seat' : `${pool.availableLicenses} free seats`;
}

/** Calendar days from `now` to `end` (`calendarDaysUntil`, at least 0), or undefined when `end` is not a date. */
function daysUntil(end: string, now: Date): number | undefined {
  const days = calendarDaysUntil(end, now);
  return days === undefined ? undefined : Math.max(0, days);
}

/** "runs to Dec 31, 2026 (36 days)": how long a license assigned now would run (plain text). */
export function licenseRunWords(poolEnd: string, now: Date): string {
  const days = daysUntil(poolEnd, now);
  if (days === undefined) return '';
  return `license runs to ${dayText(poolEnd)} (${days === 1 ? '1 day' : `${days} days`})`;
}

/**
 * A reason as mrkdwn, whole: it holds at most MAX_REASON characters as a person counts them, but its
 * emoji shortcodes take more code points, and escaping may lengthen it; kept well inside a section's
 * 3,000 characters, cut only in the unlikely case it would not fit.
 */
function shownReason(text: string): string {
  const escaped = escapeTruncated(text, 2000);
  return escaped.length <= 2400 ? escaped : escapeTruncated(text, MAX_REASON);
}

/** A license this short is worth a warning on the card: the approver may prefer another pool. */
const SHORT_DAYS = 30;

export interface RequestFormInput {
  pools: readonly Pool[];
  /** Preselected pool, when the command named one or its words matched one course. */
  poolId?: string | undefined;
  privateMetadata: string;
  /** For how long a license would run from today (each option shows the pool's end). */
  now?: Date;
}

export function buildRequestFormModal(inputData: RequestFormInput): ModalView {
  const options = inputData.pools
    .slice(0, LIMITS.selectOptions)
    .map((p) =>
      option(
        `${p.course.title} · pool ${p.id}`,
        p.id,
        [seatsWords(p), inputData.now ? licenseRunWords(p.end, inputData.now) : ''].filter(Boolean).join(' · '),
      ),
    );
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
        {
          hint: 'Running pools only, with their free seats and how long a license would run: from the approval to the pool’s end.',
        },
      ),
      reasonInput(RequestInputId.reason, 'Why', 'What you need the course for (optional)'),
      input(
        RequestInputId.neededBy.block,
        'Needed by',
        { type: 'datepicker', action_id: RequestInputId.neededBy.action },
        { optional: true, hint: 'Within a year, and not after the pool’s end.' },
      ),
    ]),
  });
}

/** An optional reason of at most MAX_REASON characters (the request's "Why", the deny's "Reason"). */
/** A reason's input (optional unless `optional` is false): Slack's raw cap, the limit as a person counts it in the hint. */
export function reasonInput(
  id: { block: string; action: string },
  label: string,
  placeholder: string,
  optional = true,
) {
  return input(
    id.block,
    label,
    {
      type: 'plain_text_input',
      action_id: id.action,
      // Slack counts an emoji as its :shortcode:; the limit is checked on submission, counted as a person sees it.
      max_length: MAX_REASON_RAW,
      placeholder: { type: 'plain_text', text: placeholder },
    },
    { optional, hint: `${MAX_REASON} characters at most; an emoji counts as one.` },
  );
}

/**
 * Loading, working and result views of the request form (and, titled DENY_TITLE, of the deny
 * modal). `text` is mrkdwn, escaped by the caller.
 */
export function buildRequestInfoModal(text: string, title: string = REQUEST_TITLE): ModalView {
  return modal({
    callbackId: RequestCallbackId.info,
    title,
    blocks: [section(truncate(text, LIMITS.sectionText))],
  });
}

export function buildDenyReasonModal(request: CourseRequest): ModalView {
  return modal({
    callbackId: RequestCallbackId.denyForm,
    title: DENY_TITLE,
    submit: 'Deny',
    close: 'Cancel',
    privateMetadata: request.id,
    blocks: [
      section(`Deny <@${request.requester}>'s request for *${escapeTruncated(request.courseTitle, 200)}*?`),
      reasonInput(RequestInputId.denyReason, 'Reason', 'Told to the requester (optional)'),
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
      return r.seatChoice
        ? `:hourglass_flowing_sand: Approved by ${by}${at}, but the pool is full: no license yet. A license admin frees a seat${r.seatChoice.waitlist ? ' or adds it to the waitlist' : ''}, or it expires.`
        : `:grey_question: Approved by ${by}${at}; whether the license was assigned is being checked.`;
    case 'waitlisted':
      return `:white_check_mark: Approved by ${by}${at}; on the waitlist for a seat.`;
    case 'assigning':
      return `:hourglass_flowing_sand: Approved by ${by}${at}; the license is being assigned.`;
    case 'assigned':
      return `:white_check_mark: Approved by ${by}${at}; license \`${escapeMrkdwn(r.licenseId ?? '')}\` assigned${r.endDate ? `, ends ${day(r.endDate)}` : ''}.`;
    case 'denied':
      return `:no_entry_sign: Denied by ${by}${at}${r.denyReason ? `: “${shownReason(r.denyReason)}”` : '.'}`;
    case 'expired':
      return r.noSeatFound
        ? `:alarm_clock: Expired${at}: approved by ${by}, but the pool stayed full and no seat was found in time.`
        : `:alarm_clock: Expired${at}: nobody decided in time.`;
    case 'cancelled':
      return `:heavy_multiplication_x: Cancelled by the requester${at}.`;
  }
}

export interface RequestCardInput {
  request: CourseRequest;
  /** Free seats when the card was posted; omitted on later updates. */
  freeSeats?: number | undefined;
  /** For how long the license would run if approved now (from the pool's end saved on the request). */
  now?: Date | undefined;
}

/** The buttons of an approved request for a full pool: free a seat, the waitlist. */
function seatChoiceButtons(r: CourseRequest, choice: { transferable: boolean; waitlist: boolean }) {
  return [
    choice.transferable ? button(RequestActionId.recycle, 'Free a seat…', r.id) : undefined,
    choice.waitlist ? button(RequestActionId.waitlist, 'Add to the waitlist', r.id, 'primary') : undefined,
  ].filter((b) => b !== undefined);
}

/** The card's line on who sent it, for a request a workflow made: its builder chose the requester. */
function workflowLine(r: CourseRequest): string | undefined {
  if (r.source !== 'workflow' || !r.workflow) return undefined;
  const name = r.workflow.workflowName ? ` “${escapeTruncated(r.workflow.workflowName, 100)}”` : '';
  const run = r.workflow.workflowRun ? ` (run \`${escapeTruncated(r.workflow.workflowRun, 40)}\`)` : '';
  return `:zap: Sent by the Workflow Builder workflow${name}${run}, not by the requester: the workflow chose who asks.`;
}

/** The approvers' card: who asks for what and why, with Approve and Deny while undecided. */
export function buildRequestCardMessage({ request: r, freeSeats, now }: RequestCardInput): SlackMessage {
  const seats =
    freeSeats === undefined
      ? ''
      : freeSeats <= 0
        ? ' · *full*'
        : ` · ${freeSeats} free seat${freeSeats === 1 ? '' : 's'}`;
  const who = `<@${r.requester}> (${escapeTruncated(r.requesterEmail, 254)})`;
  // While no license is assigned: how long one would run, from now to the pool's end.
  const days = r.poolEnd && now ? daysUntil(r.poolEnd, now) : undefined;
  const start =
    r.status === 'pending' ? 'If approved now' : r.status === 'approved' ? 'Once a seat is found' : undefined;
  const run =
    start && r.poolEnd && days !== undefined
      ? `${days < SHORT_DAYS ? ':warning: ' : ''}${start}, the license runs to the pool’s end, ${day(r.poolEnd)}: *${days === 1 ? '1 day' : `${days} days`}*.`
      : undefined;
  const blocks: (Block | undefined)[] = [
    header('Course request'),
    section(`${who} asks for *${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeMrkdwn(r.poolId)}\`)${seats}`),
    workflowLine(r) ? context(workflowLine(r) ?? '') : undefined,
    r.reason ? section(`*Why:* ${shownReason(r.reason)}`) : undefined,
    run ? section(run) : undefined,
    context(
      [`Requested ${when(r.createdAt)}`, r.neededBy ? `needed by ${day(r.neededBy)}` : undefined]
        .filter(Boolean)
        .join(' · '),
    ),
    r.status === 'pending'
      ? actions([
          button(RequestActionId.approve, 'Approve', r.id, 'primary'),
          button(RequestActionId.deny, 'Deny…', r.id, 'danger'),
        ])
      : section(statusLine(r)),
    // Approved for a full pool: every copy offers the choice, not only the approver's own message.
    r.status === 'approved' && r.seatChoice && seatChoiceButtons(r, r.seatChoice).length > 0
      ? actions(seatChoiceButtons(r, r.seatChoice))
      : undefined,
  ];
  const text = `Course request: ${escapeTruncated(r.courseTitle, 200)} for ${who}`;
  return { text, blocks: blocks.filter((b): b is Block => b !== undefined) };
}

/**
 * A reminder under the card (thread reply): nobody has decided yet; or, approved for a full pool,
 * nobody has freed a seat nor chosen the waitlist (then with those buttons, also to the approver).
 */
export function buildRequestReminderMessage(r: CourseRequest, expiresAt: string): SlackMessage {
  if (r.status === 'approved' && r.seatChoice) {
    const by = r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) ? `<@${r.decidedBy}>` : 'a license admin';
    const choices = seatChoiceButtons(r, r.seatChoice);
    const text = `:bell: Reminder: <@${r.requester}>'s request for *${escapeTruncated(r.courseTitle, 200)}* was approved by ${by}, but pool \`${escapeMrkdwn(r.poolId)}\` is full and no seat has been found. ${
      choices.length > 0 ? 'Free a seat or add it to the waitlist' : 'Free a seat in the pool and the check assigns it'
    }, or the request expires ${when(expiresAt)}.`;
    return { text, blocks: [section(text), ...(choices.length > 0 ? [actions(choices)] : [])] };
  }
  const text = `:bell: Reminder: <@${r.requester}>'s request for *${escapeTruncated(r.courseTitle, 200)}* is still waiting for a decision; it expires ${when(expiresAt)}.`;
  return { text, blocks: [section(text)] };
}

/** The line an escalated card carries (a new copy, or a thread reply under a copy its reader has). */
export function escalatedLine(r: CourseRequest): string {
  return `:rotating_light: Escalated: <@${r.requester}>'s request for *${escapeTruncated(r.courseTitle, 200)}* has waited since ${when(r.createdAt)} without a decision.`;
}

/** The requester's DM when their request is escalated. */
export function buildRequestEscalatedMessage(r: CourseRequest): SlackMessage {
  const text = `:rotating_light: Your request for *${escapeTruncated(r.courseTitle, 200)}* has not been decided yet, so it was passed on to more approvers. You will hear as soon as someone decides.`;
  return { text, blocks: [section(text)] };
}

/** What the requester is told by DM at each step. */
export function buildRequestUpdateMessage(
  r: CourseRequest,
  extra: { place?: number | undefined; expiresAt?: string | undefined } = {},
): SlackMessage {
  const course = `*${escapeTruncated(r.courseTitle, 200)}*`;
  const by = r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) ? `<@${r.decidedBy}>` : 'a license admin';
  let text: string;
  switch (r.status) {
    case 'pending':
      text = `:inbox_tray: Your request for ${course} was received; the license admins have been asked. You'll hear here when it is decided. (\`/licenses requests\` shows it.)`;
      break;
    case 'approved':
      text = `:hourglass_flowing_sand: Your request for ${course} was approved by ${by}, but the pool is full, so there is no license yet: a license admin is freeing a seat or putting you on the waitlist. You'll hear here${extra.expiresAt ? `; if no seat is found by ${when(extra.expiresAt)}, the request expires` : ''}.`;
      break;
    case 'assigning':
      text = `:hourglass_flowing_sand: Your request for ${course} was approved by ${by}; the license is being assigned. You'll hear here once it is yours.`;
      break;
    case 'waitlisted':
      text = `:white_check_mark: Your request for ${course} was approved by ${by}, but the pool is full: you are on the waitlist${extra.place ? `, number ${extra.place}` : ''}. You'll get the first free seat in order.`;
      break;
    case 'assigned':
      text = `:tada: Your request for ${course} was approved by ${by}: license \`${escapeMrkdwn(r.licenseId ?? '')}\` is yours${r.endDate ? ` until ${day(r.endDate)}` : ''}. Check your e-mail (${escapeTruncated(r.requesterEmail, 254)}) for access.`;
      break;
    case 'denied':
      text = `:no_entry_sign: Your request for ${course} was denied by ${by}${r.denyReason ? `: “${shownReason(r.denyReason)}”` : '.'}`;
      break;
    case 'expired':
      text = r.noSeatFound
        ? `:alarm_clock: Your request for ${course} expired: it was approved by ${by}, but the pool stayed full and no seat was found in time. Ask again with \`/licenses request\` if you still need it.`
        : `:alarm_clock: Your request for ${course} expired: nobody decided in time. Ask again with \`/licenses request\` if you still need it.`;
      break;
    case 'cancelled':
      text = `:heavy_multiplication_x: You cancelled your request for ${course}.`;
      break;
  }
  return { text, blocks: [section(text)] };
}

/** A request its requester may still cancel: undecided, or approved and waiting in its pool's line. */
export function cancellable(r: Pick<CourseRequest, 'status'>): boolean {
  return r.status === 'pending' || r.status === 'waitlisted';
}

const cancelButton = (r: CourseRequest) => button(RequestActionId.cancel, 'Cancel request', r.id, 'danger');

/** ", number 2 in line" for a waitlisted request whose place is known. */
const placeWords = (r: CourseRequest, places?: ReadonlyMap<string, number>) => {
  const place = r.status === 'waitlisted' ? places?.get(r.id) : undefined;
  return place === undefined ? '' : `, number ${place} in line`;
};

/**
 * `/licenses requests`: the member's own requests, newest first, with Cancel while undecided or
 * waiting on the waitlist (`places`: each waitlisted request's place in its line).
 */
export function buildMyRequestsMessage(
  requests: readonly CourseRequest[],
  places?: ReadonlyMap<string, number>,
): SlackMessage {
  if (requests.length === 0) {
    return {
      text: 'You have no course requests.',
      blocks: [section('You have no course requests. Ask for a course with `/licenses request`.')],
    };
  }
  const shown = [...requests].reverse().slice(0, 20);
  const blocks: Block[] = [header('Your course requests')];
  for (const r of shown) {
    const status = statusLine(r).replace(/\.$/, `${placeWords(r, places)}.`);
    const line = `*${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeMrkdwn(r.poolId)}\`) · asked ${when(r.createdAt)}\n${status}`;
    blocks.push(cancellable(r) ? section(line, cancelButton(r)) : section(line));
  }
  if (requests.length > shown.length) blocks.push(context(`The 20 newest of ${requests.length}.`));
  return { text: `Your course requests (${requests.length})`, blocks };
}

/** At most this many open requests in App Home's "Your requests" (the rest: `/licenses requests`). */
export const HOME_MAX_MY_REQUESTS = 5;

/** A request's state in a few words, for App Home. */
function shortStatus(r: CourseRequest, places?: ReadonlyMap<string, number>): string {
  switch (r.status) {
    case 'pending':
      return 'waiting for a license admin';
    case 'approved':
      return 'approved; the pool is full, waiting for a license admin to free a seat';
    case 'assigning':
      return 'approved; the license is being assigned';
    case 'waitlisted': {
      const place = places?.get(r.id);
      return place === undefined ? 'on the waitlist for a seat' : `on the waitlist, number ${place} in line`;
    }
    default:
      return r.status;
  }
}

/**
 * App Home's "Your requests" for a member who is not a license admin: their open requests (undecided,
 * approved for a full pool, being assigned, on a waitlist with their place), newest first, with
 * Cancel where they may; `note` on top (what their last click did). Empty when they have none open
 * and there is no note. At most `max` requests (HOME_MAX_MY_REQUESTS), the rest counted.
 */
export function buildMyRequestsHomeSection(input: {
  requests: readonly CourseRequest[];
  places?: ReadonlyMap<string, number>;
  note?: string;
  max?: number;
}): Block[] {
  const open = [...input.requests].filter((r) => isOpenOrWaiting(r)).reverse();
  if (open.length === 0 && !input.note) return [];
  const max = Math.max(0, input.max ?? HOME_MAX_MY_REQUESTS);
  const blocks: Block[] = [header('Your requests')];
  if (input.note) blocks.push(context(input.note));
  if (open.length === 0) blocks.push(context('You have no open course requests.'));
  for (const r of open.slice(0, max)) {
    const line = `*${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeMrkdwn(r.poolId)}\`) · asked ${when(r.createdAt)}\n${shortStatus(r, input.places)}`;
    blocks.push(cancellable(r) ? section(line, cancelButton(r)) : section(line));
  }
  if (open.length > max) {
    blocks.push(context(`${open.length - max} more: \`/licenses requests\` lists them all.`));
  }
  return blocks;
}

function isOpenOrWaiting(r: CourseRequest): boolean {
  return r.status === 'pending' || r.status === 'approved' || r.status === 'assigning' || r.status === 'waitlisted';
}

/** To the approver when the pool is full: recycle (transferable pools) or the waitlist, or deny. */
export function buildFullPoolChoiceMessage(
  r: CourseRequest,
  choice: { transferable: boolean; waitlist: boolean },
): SlackMessage {
  const text = `Pool \`${escapeMrkdwn(r.poolId)}\` of *${escapeTruncated(r.courseTitle, 200)}* is full, so no license was assigned yet. ${
    choice.transferable ? 'Free a seat (a confirmation names who loses it)' : 'This pool cannot recycle seats'
  }${choice.waitlist ? ', or put the request on the waitlist: it gets the first seat that frees up.' : '.'}`;
  const buttons = seatChoiceButtons(r, choice);
  return { text, blocks: [section(text), ...(buttons.length > 0 ? [actions(buttons)] : [])] };
}

/**
 * An action on a request whose stored record cannot be read: said plainly (never "no longer exists"),
 * and what to do. The log names the request (a warning); the person never sees its id.
 */
export const REQUEST_UNREADABLE_TEXT =
  'That request cannot be read: its record in License Desk’s database is damaged, so nothing was changed. Whoever runs License Desk finds it named in the log (a warning) and can restore it from a backup; other requests are not affected.';

export function buildRequestUnreadableMessage(): SlackMessage {
  return buildRequestNoteMessage(`:warning: ${REQUEST_UNREADABLE_TEXT}`);
}

/** One sentence to whoever clicked (mrkdwn already escaped where it holds outside text). */
export function buildRequestNoteMessage(mrkdwn: string): SlackMessage {
  return { text: mrkdwn, blocks: [section(mrkdwn)] };
}

const ALREADY: Record<CourseRequest['status'], string> = {
  pending: 'is still pending',
  approved: 'was already approved',
  waitlisted: 'was already approved',
  assigning: 'was already approved',
  assigned: 'was already approved',
  denied: 'was already denied',
  expired: 'has already expired',
  cancelled: 'was already cancelled by the requester',
};

/** "This request was already approved by @x on …": what a late click learns. */
export function requestAlreadySentence(r: CourseRequest): string {
  const by =
    r.decidedBy && /^[UW][A-Z0-9]+$/.test(r.decidedBy) && r.status !== 'cancelled' ? ` by <@${r.decidedBy}>` : '';
  const at = r.decidedAt ? ` on ${when(r.decidedAt)}` : '';
  const still = r.status === 'assigning' ? '; its license is being assigned now' : '';
  return `This request ${ALREADY[r.status]}${by}${at}${still}.`;
}

export function buildRequestAlreadyMessage(r: CourseRequest): SlackMessage {
  return buildRequestNoteMessage(`:information_source: ${requestAlreadySentence(r)}`);
}

/**
 * What an approver's Approve or Deny came to. `told`: the requester's DM of it was delivered already
 * (else they will be told: the message waits in the outbox, tried again until Slack takes it).
 */
export function buildRequestDecisionMessage(outcome: DecideOutcome, told = false): SlackMessage {
  switch (outcome.kind) {
    case 'not-found':
      return buildRequestNoteMessage(':grey_question: That request no longer exists.');
    case 'own':
      return buildRequestNoteMessage(':no_entry_sign: You can’t decide your own request; another license admin will.');
    case 'already':
      return buildRequestAlreadyMessage(outcome.request);
    case 'requester-gone':
      return buildRequestNoteMessage(
        `:no_entry_sign: <@${outcome.request.requester}> can no longer get a license: ${escapeMrkdwn(outcome.why)}. Nothing was assigned and the request is still pending; deny it (they will be told).`,
      );
    case 'requester-unknown':
      return buildRequestNoteMessage(
        `:x: I could not check with Slack that <@${outcome.request.requester}> may still get a license (${escapeMrkdwn(outcome.why)}). Nothing was assigned; please click Approve again in a minute.`,
      );
    case 'denied':
      return buildRequestNoteMessage(
        `:no_entry_sign: Denied. <@${outcome.request.requester}> ${told ? 'was told' : 'will be told by DM'}${outcome.request.denyReason ? ', with your reason' : ''}.`,
      );
    case 'not-recorded':
      return buildRequestNoteMessage(
        ':x: License Desk could not reach its database, so nothing was recorded and nothing was sent. Please try again in a minute.',
      );
    case 'unrecorded': {
      const r = outcome.request;
      const a = outcome.assigned;
      if (a) {
        const end = a.endDate ? `, ends ${day(a.endDate)}` : '';
        return buildRequestNoteMessage(
          `:white_check_mark: Approved: license \`${escapeMrkdwn(a.licenseId)}\` was assigned to <@${r.requester}>${end}. License Desk could not record it yet (its database is not answering); it will be confirmed and <@${r.requester}> told once the database is back. You don’t need to click Approve again.`,
        );
      }
      return buildRequestNoteMessage(
        `:hourglass_flowing_sand: The assign for <@${r.requester}> was sent, but License Desk could not record its outcome (its database is not answering). It will check with the licensing service once the database is back and tell you by DM. Don’t click Approve again.`,
      );
    }
    case 'assigned': {
      const r = outcome.request;
      const end = r.endDate ? `, ends ${day(r.endDate)}` : '';
      return buildRequestNoteMessage(
        `:white_check_mark: Approved: license \`${escapeMrkdwn(r.licenseId ?? '')}\` assigned to <@${r.requester}>${end}. ${told ? 'They were told.' : 'They will be told by DM.'}`,
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
      return buildRequestNoteMessage(`${emoji} ${requestAssignText(outcome.outcome)}${still}`);
    }
  }
}

/** "Add to the waitlist" came to this: the place, or why not. */
export function buildRequestWaitlistedMessage(outcome: WaitlistJoinOutcome): SlackMessage {
  switch (outcome.kind) {
    case 'joined':
      return buildRequestNoteMessage(
        `:white_check_mark: On the waitlist, number ${outcome.place}. The requester was told.`,
      );
    case 'not-found':
      return buildRequestNoteMessage(':no_entry_sign: That request no longer exists.');
    case 'assigning':
      return buildRequestNoteMessage(
        ':hourglass_flowing_sand: Its license is being assigned right now (a seat was found); it does not need the waitlist. The card shows the outcome in a moment.',
      );
    case 'in-line':
      return buildRequestNoteMessage(
        `:information_source: It is on the waitlist already${outcome.place ? `, number ${outcome.place}` : ''}.`,
      );
    case 'not-waiting':
      return buildRequestNoteMessage(`:no_entry_sign: That request is ${outcome.status}, not waiting for a seat.`);
    case 'off':
      return buildRequestNoteMessage(
        ':no_entry_sign: The waitlist is not available in this version of License Desk; free a seat instead, or deny.',
      );
  }
}

/** Why a requester's Cancel changed nothing (undefined: it was cancelled). */
export function buildCancelRefusedMessage(outcome: Exclude<CancelOutcome, { kind: 'cancelled' }>): SlackMessage {
  switch (outcome.kind) {
    case 'not-yours':
      return buildRequestNoteMessage(':no_entry_sign: That request is not one of yours.');
    case 'assigning':
      return buildRequestNoteMessage(
        ':no_entry_sign: That request was just approved and its license is being assigned; it cannot be cancelled.',
      );
    case 'decided':
      return buildRequestNoteMessage(
        `:no_entry_sign: That request was already decided (${outcome.status}); it cannot be cancelled.`,
      );
  }
}

/** A requester's Cancel: their list as it is now, under what happened. */
export function buildRequestCancelledMessage(
  requests: readonly CourseRequest[],
  places?: ReadonlyMap<string, number>,
): SlackMessage {
  const list = buildMyRequestsMessage(requests, places);
  return { text: list.text, blocks: [section(':heavy_multiplication_x: Request cancelled.'), ...list.blocks] };
}

/**
 * To the approver, once an approval's assign ended after their click was answered (License Desk
 * restarted meanwhile, or the licensing service's answer was lost and read back later).
 */
export function buildApprovalSettledMessage(
  r: CourseRequest,
  assigned: boolean,
  why?: string,
  seat?: boolean,
): SlackMessage {
  const whose = `<@${r.requester}>'s request for *${escapeTruncated(r.courseTitle, 200)}*`;
  const what = seat ? `The seat you freed for ${whose}` : `Your approval of ${whose}`;
  if (assigned) {
    const end = r.endDate ? `, ends ${day(r.endDate)}` : '';
    return buildRequestNoteMessage(
      `:white_check_mark: ${what} went through: license \`${escapeMrkdwn(r.licenseId ?? '')}\` is assigned${end}. They are told by DM.`,
    );
  }
  const next = seat
    ? 'the request is still approved, so free a seat again or put it on the waitlist'
    : 'the request is pending again, so approve it again or deny it';
  return buildRequestNoteMessage(
    `:warning: ${what} did not end in a license: ${escapeMrkdwn(why ?? 'the assign did not go through')}. Nothing was assigned; ${next}.`,
  );
}
