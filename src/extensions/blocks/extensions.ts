/**
 * The words of extension requests: the learner's form, the approvers' card and its reminder, the
 * deny modal, the learner's DMs, and the replies to a click. Every string from the API or a person
 * is escaped here.
 */
import { ExtensionActionId, ExtensionCallbackId, ExtensionInputId } from '../../kernel/blocks/ids.js';
import { actions, button, context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { LIMITS } from '../../kernel/blocks/limits.js';
import { input, type ModalView, modal } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMoment, truncate } from '../../kernel/blocks/mrkdwn.js';
import { addDays, dayOf } from '../../kernel/domain/end-date.js';
import { reasonInput } from '../../requests/index.js';
import {
  type AskRefusal,
  type ExtensionDecision,
  type ExtensionRequest,
  latestDay,
  shownDay,
} from '../domain/extensions.js';

export const MORE_TIME_TITLE = 'Ask for more time';
export const DENY_TITLE = 'Deny more time';

/** A sentence from elsewhere, without its closing stop, to go inside one of ours. */
const inner = (text: string) => escapeTruncated(text.replace(/[.\s]+$/, ''), 500);
const course = (title: string) => `*${escapeTruncated(title, 200)}*`;
const pool = (id: string) => `pool \`${escapeMrkdwn(id)}\``;
const quoted = (text: string) => `“${escapeTruncated(text, 600)}”`;
const person = (id: string | undefined) => (id && /^[UW][A-Z0-9]+$/.test(id) ? `<@${id}>` : 'License Desk');
const message = (text: string, more: SlackMessage['blocks'] = []): SlackMessage => ({
  text: truncate(text, 3000),
  blocks: [section(truncate(text, LIMITS.sectionText)), ...more],
});

/** A reply to whoever clicked: one mrkdwn sentence as built here. */
export const buildExtensionNote = (text: string): SlackMessage => message(text);

/** What the form is opened for: the license as read just now. */
export interface MoreTimeForm {
  licenseId: string;
  courseTitle: string;
  poolId: string;
  currentEnd: string;
  poolEnd: string;
}

/** The learner's form: a new end date (the latest possible said) and why. */
export function buildMoreTimeModal(f: MoreTimeForm): ModalView {
  const latest = latestDay(f.poolEnd);
  const current = dayOf(f.currentEnd);
  const suggested = current ? addDays(current, 30) : latest;
  return modal({
    callbackId: ExtensionCallbackId.form,
    title: MORE_TIME_TITLE,
    submit: 'Ask',
    close: 'Cancel',
    privateMetadata: f.licenseId,
    blocks: [
      section(
        `${course(f.courseTitle)} (${pool(f.poolId)}): your license runs until *${dayText(f.currentEnd)}*. The latest possible end date is *${shownDay(latest)}*, when the pool ends.`,
      ),
      input(
        ExtensionInputId.endDate.block,
        'New end date',
        {
          type: 'datepicker',
          action_id: ExtensionInputId.endDate.action,
          initial_date: suggested < latest ? suggested : latest,
        },
        { hint: `Later than ${dayText(f.currentEnd)}, and ${shownDay(latest)} at the latest.` },
      ),
      reasonInput(ExtensionInputId.reason, 'Why do you need more time?', 'Told to the license admins', false),
      context('A license admin decides; you hear the answer by DM.'),
    ],
  });
}

export function buildExtensionInfoModal(text: string, title = MORE_TIME_TITLE): ModalView {
  return modal({ callbackId: ExtensionCallbackId.info, title, blocks: [section(truncate(text, LIMITS.sectionText))] });
}

/** Why the ask was not taken, as one sentence for the learner. */
export function askRefusalText(r: AskRefusal): string {
  switch (r.kind) {
    case 'not-yours':
      return ':no_entry_sign: That license is not yours, so you cannot ask for more time on it. Nothing was changed.';
    case 'not-changeable':
      return r.why === 'not-transferable'
        ? ':lock: The end date of a license in this pool cannot be changed (the pool is not transferable), so more time cannot be given. Nothing was changed.'
        : ':lock: This license is no longer active, so more time cannot be given. Nothing was changed.';
    case 'waiting':
      return `:information_source: You already asked for more time on ${course(r.request.courseTitle)} (until ${shownDay(r.request.endDate)}), and that request is waiting for a license admin. You hear the answer by DM.`;
    case 'date':
    case 'reason':
    case 'limited':
      return `:warning: ${escapeMrkdwn(r.problem)}`;
  }
}

function statusLine(r: ExtensionRequest): string {
  const at = r.decidedAt ? ` on ${slackMoment(r.decidedAt)}` : '';
  switch (r.status) {
    case 'pending':
      return r.lastProblem
        ? `:hourglass_flowing_sand: Waiting for a license admin. The last approval changed nothing: ${inner(r.lastProblem)}.`
        : ':hourglass_flowing_sand: Waiting for a license admin.';
    case 'extending':
      return `:hourglass_flowing_sand: Approved by ${person(r.decidedBy)}${at}; the end date is being changed.`;
    case 'approved':
      return `:white_check_mark: Approved by ${person(r.decidedBy)}${at}: the license now ends on ${shownDay(r.endDate)}.`;
    case 'denied':
      return `:no_entry_sign: Denied by ${person(r.decidedBy)}${at}${r.denyReason ? `: ${quoted(r.denyReason)}` : '.'}`;
    case 'expired':
      return `:alarm_clock: Expired${at}: nobody decided in time.`;
  }
}

/** The approvers' card: who asks, for which license, until when and why; Approve and Deny while undecided. */
export function buildExtensionCardMessage(r: ExtensionRequest): SlackMessage {
  const asks = `<@${r.requester}> asks for more time on ${course(r.courseTitle)} (${pool(r.poolId)}) until *${shownDay(r.endDate)}*: ${quoted(r.reason)}`;
  const facts = `License \`${escapeMrkdwn(r.licenseId)}\` of ${escapeTruncated(r.requesterEmail, 254)} ends ${dayText(r.currentEnd)} today; the pool ends ${dayText(r.poolEnd)}.`;
  const buttons =
    r.status === 'pending'
      ? [
          actions([
            button(ExtensionActionId.approve, 'Approve', r.id, 'primary'),
            button(ExtensionActionId.deny, 'Deny…', r.id, 'danger'),
          ]),
        ]
      : [];
  return {
    text: `<@${r.requester}> asks for more time on ${escapeTruncated(r.courseTitle, 200)}`,
    blocks: [section(truncate(asks, LIMITS.sectionText)), context(facts), context(statusLine(r)), ...buttons],
  };
}

export function buildExtensionReminderMessage(r: ExtensionRequest, expiresAt: string): SlackMessage {
  return message(
    `:bell: Reminder: <@${r.requester}> still waits for an answer about more time on ${course(r.courseTitle)} (until ${shownDay(r.endDate)}). It expires ${slackMoment(expiresAt)} if nobody decides.`,
    [
      actions([
        button(ExtensionActionId.approve, 'Approve', r.id, 'primary'),
        button(ExtensionActionId.deny, 'Deny…', r.id, 'danger'),
      ]),
    ],
  );
}

/** The learner's DM: their ask was sent, or its outcome. */
export function buildExtensionLearnerMessage(r: ExtensionRequest): SlackMessage {
  const on = `${course(r.courseTitle)} (${pool(r.poolId)})`;
  switch (r.status) {
    case 'approved':
      return message(
        `:white_check_mark: You have more time: your license for ${on} now ends on *${shownDay(r.endDate)}*.`,
      );
    case 'denied':
      return message(
        `:no_entry_sign: Your request for more time on ${on} was denied by ${person(r.decidedBy)}${r.denyReason ? `: ${quoted(r.denyReason)}` : '.'} Your license still ends on ${dayText(r.currentEnd)}.`,
      );
    case 'expired':
      return message(
        `:alarm_clock: Your request for more time on ${on} expired: nobody decided in time. Your license still ends on ${dayText(r.currentEnd)}; you may ask again.`,
      );
    default:
      return message(
        `:incoming_envelope: Your request for more time on ${on} until *${shownDay(r.endDate)}* was sent to the license admins. You hear the answer here.`,
      );
  }
}

/** The approver's DM after an approval's write was settled by reading back (a restart, a lost answer). */
export function buildExtensionSettledMessage(r: ExtensionRequest, extended: boolean): SlackMessage {
  const about = `more time for <@${r.requester}> on ${course(r.courseTitle)}`;
  return message(
    extended
      ? `:white_check_mark: Your approval of ${about} went through after all: the license now ends on ${shownDay(r.endDate)}. They were told.`
      : `:warning: Your approval of ${about} did not go through: License Desk stopped before the end date was changed. The request waits again; approve it again or deny it.`,
  );
}

/** The answer to an approver's click or denial. */
export function buildExtensionDecisionText(d: ExtensionDecision): string {
  switch (d.kind) {
    case 'not-found':
      return ':grey_question: That request for more time no longer exists.';
    case 'own':
      return ':no_entry_sign: You cannot decide your own request for more time; another license admin will.';
    case 'already':
      return `:information_source: Already decided. ${statusLine(d.request)}`;
    case 'not-recorded':
      return ':warning: License Desk could not record the decision, so nothing was changed or sent. Please try again in a minute.';
    case 'approved':
      return `:white_check_mark: Approved: <@${d.request.requester}>'s license for ${course(d.request.courseTitle)} now ends on ${shownDay(d.request.endDate)}. They are told by DM.`;
    case 'denied':
      return `:no_entry_sign: Denied. <@${d.request.requester}> is told by DM${d.request.denyReason ? ', with your reason' : ''}.`;
    case 'not-extended':
      return `:warning: The end date was not changed: ${inner(d.why)}. The request waits again; approve it again later or deny it.`;
    case 'unknown':
      return ':hourglass_flowing_sand: The licensing service did not answer clearly; License Desk is checking whether the end date changed and tells you and the learner. Nothing else is needed.';
  }
}

export function buildExtensionDenyModal(r: ExtensionRequest): ModalView {
  return modal({
    callbackId: ExtensionCallbackId.denyForm,
    title: DENY_TITLE,
    submit: 'Deny',
    close: 'Cancel',
    privateMetadata: r.id,
    blocks: [
      section(
        `Deny <@${r.requester}>'s request for more time on ${course(r.courseTitle)} (until ${shownDay(r.endDate)})?`,
      ),
      reasonInput(ExtensionInputId.denyReason, 'Reason', 'Told to the learner (optional)', true),
    ],
  });
}
