/**
 * The learner's own desk in words (docs/learners.md): their licenses with "Return my seat" and "Ask
 * for more time" (as `/licenses mine`, on App Home and in a reminder), the return's confirmation and
 * outcome, and the reminder's DM with "Stop these reminders". Pure: data in, blocks out; every string
 * from the API is escaped here.
 */
import { compact } from '../../kernel/blocks/common.js';
import { LearnerActionId, LearnerCallbackId } from '../../kernel/blocks/ids.js';
import { actions, type Block, button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { endText } from '../../kernel/blocks/license-text.js';
import { type ModalView, modal } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { Outcome } from '../../kernel/blocks/outcome.js';
import { count } from '../../kernel/domain/count.js';
import type {
  LearnerReminderNotice,
  MineOutcome,
  MyLicense,
  ReturnCheck,
  ReturnOutcome,
  ReturnRefusal,
} from '../domain/learners.js';

export const RETURN_TITLE = 'Return my seat';

/** At most this many licenses on App Home (a view holds 100 blocks; each license takes two). */
export const HOME_MAX_MY_LICENSES = 10;

const code = (id: string) => `\`${escapeTruncated(id, 64)}\``;

function progressText(l: Pick<MyLicense, 'progress' | 'completed'>): string {
  if (l.completed) return `:white_check_mark: completed ${dayText(l.completed)}`;
  if (l.progress >= 100) return ':white_check_mark: completed';
  return `${Math.max(0, Math.round(l.progress))} % done`;
}

/** One license and its two buttons. */
export function licenseBlocks(l: MyLicense, now: Date): Block[] {
  const text = [
    `*${escapeTruncated(l.courseTitle, 120)}* · pool ${code(l.poolId)} · license ${code(l.licenseId)}`,
    `${progressText(l)} · ${endText(l.end, now)}`,
  ].join('\n');
  return [
    section(text),
    actions(
      [
        button(LearnerActionId.returnSeat, RETURN_TITLE, l.licenseId),
        button(LearnerActionId.moreTime, 'Ask for more time', l.licenseId),
      ],
      `learner_license_${l.licenseId}`.slice(0, 255),
    ),
  ];
}

/** When nothing is listed: why, in one sentence (mrkdwn, escaped). */
function emptyText(outcome: Exclude<MineOutcome, { kind: 'listed' }>): string {
  switch (outcome.kind) {
    case 'no-email':
      return `:warning: ${escapeTruncated(outcome.sentence, 400)}`;
    case 'no-student':
      return `:information_source: No licenses here for your Slack e-mail, ${escapeTruncated(outcome.email, 254)}: the licensing account has no student with it. If your licenses are under another e-mail, ask a license admin.`;
    case 'unread':
      return `:warning: I could not read your licenses right now: ${escapeTruncated(outcome.sentence, 300)}`;
    case 'none-recorded':
      return 'None of your licenses is in License Desk’s records yet: `/licenses mine` asks the licensing service.';
  }
}

/** `/licenses mine`: the member's active licenses, each with its buttons. */
export function buildMyLicensesMessage(outcome: MineOutcome, now: Date): SlackMessage {
  if (outcome.kind !== 'listed') {
    const text = emptyText(outcome);
    return { text, blocks: [section(text)] };
  }
  const { licenses } = outcome;
  if (licenses.length === 0) {
    const text = `:information_source: You have no active licenses (${escapeTruncated(outcome.email, 254)}). To ask for one, use \`/licenses request\`.`;
    return { text, blocks: [section(text)] };
  }
  const shown = licenses.slice(0, 20);
  return {
    text: `Your licenses: ${count(licenses.length, 'active license')}`,
    blocks: compact([
      header('Your licenses'),
      ...shown.flatMap((l) => licenseBlocks(l, now)),
      licenses.length > shown.length ? context(`${licenses.length - shown.length} more not shown.`) : undefined,
      context(
        `Found by your Slack e-mail, ${escapeTruncated(outcome.email, 254)}. Returning a seat ends your access; the seat goes to the next person waiting.`,
      ),
    ]),
  };
}

/** App Home's "Your licenses" (a header and the licenses, at most `max`); nothing for a member with none. */
export function buildMyLicensesHomeSection(outcome: MineOutcome, now: Date, max = HOME_MAX_MY_LICENSES): Block[] {
  if (outcome.kind === 'no-student' || (outcome.kind === 'listed' && outcome.licenses.length === 0)) {
    return [
      header('Your licenses'),
      section(outcome.kind === 'listed' ? 'You have no active licenses.' : emptyText(outcome)),
    ];
  }
  if (outcome.kind !== 'listed') return [header('Your licenses'), section(emptyText(outcome))];
  const shown = outcome.licenses.slice(0, Math.max(1, max));
  const more = outcome.licenses.length - shown.length;
  return compact([
    header('Your licenses'),
    ...shown.flatMap((l) => licenseBlocks(l, now)),
    more > 0 ? context(`${more} more: \`/licenses mine\` lists every one.`) : undefined,
  ]);
}

const REFUSAL: Record<ReturnRefusal, string> = {
  'not-yours':
    'That license is not yours, so you cannot return it. Only the license admins can change other people’s licenses.',
  untransferable:
    'This seat is in an untransferable pool: a returned seat would never come back to anyone, so it cannot be returned here. It simply ends on its end date.',
  inactive: 'This license has already ended, so there is nothing to return.',
  expired: 'This license has already ended, so there is nothing to return.',
  'not-revokable': 'The licensing service does not let this license be revoked, so it cannot be returned.',
};

export function refusalSentence(refusal: ReturnRefusal): string {
  return REFUSAL[refusal];
}

/** The confirmation of "Return my seat", or why it cannot be returned. */
export function buildReturnConfirmModal(check: ReturnCheck, privateMetadata: string, now: Date): ModalView {
  if (check.kind !== 'returnable') {
    return modal({
      callbackId: LearnerCallbackId.returnConfirm,
      title: RETURN_TITLE,
      blocks: [section(checkText(check))],
    });
  }
  const { license, pool } = check;
  return modal({
    callbackId: LearnerCallbackId.returnConfirm,
    title: RETURN_TITLE,
    submit: 'Return it',
    close: 'Keep it',
    privateMetadata,
    blocks: [
      section(
        `Return your seat in *${escapeTruncated(pool.course.title, 120)}* (license ${code(license.id)}, ${endText(license.end, now)})?`,
      ),
      section(
        'Your access to the course ends now and cannot be given back by License Desk; the seat goes to the next person waiting for this course.',
      ),
    ],
  });
}

function checkText(check: Exclude<ReturnCheck, { kind: 'returnable' }>): string {
  if (check.kind === 'unread') return `:warning: Nothing was returned: ${escapeTruncated(check.sentence, 300)}`;
  const course = check.courseTitle ? ` (*${escapeTruncated(check.courseTitle, 120)}*)` : '';
  return `:no_entry_sign: Nothing was returned${check.refusal === 'not-yours' ? '' : course}. ${escapeMrkdwn(refusalSentence(check.refusal))}`;
}

/** What became of a confirmed return, for the modal. */
export function returnOutcome(outcome: ReturnOutcome): Outcome {
  if (outcome.kind === 'unread') {
    return { tone: 'failed', headline: `Nothing was returned: ${escapeTruncated(outcome.sentence, 300)}` };
  }
  if (outcome.kind === 'refused') return { tone: 'refused', headline: checkText(outcome).replace(/^:\S+: /, '') };
  const seat = `your seat in *${escapeTruncated(outcome.courseTitle, 120)}* (license ${code(outcome.license.id)})`;
  const w = outcome.write;
  switch (w.kind) {
    case 'done':
      return {
        tone: 'done',
        headline: `Returned ${seat}. Thank you!`,
        details: [
          outcome.seatGiven ? 'It went to the next person on the waitlist.' : 'The seat is free for the next learner.',
        ],
      };
    case 'not-done':
      return {
        tone: 'failed',
        headline: `The return of ${seat} did not go through; nothing changed. Please try again.`,
      };
    case 'unknown':
      return {
        tone: 'unknown',
        headline: `The licensing service did not confirm the return of ${seat} yet. License Desk reads it back and tells you by DM.`,
      };
    default:
      return {
        tone: w.kind === 'refused' ? 'refused' : 'failed',
        headline: `The return of ${seat} did not go through: ${escapeTruncated(w.sentence, 300)}`,
      };
  }
}

/** The reminder before licenses end: each with its progress and buttons, and "Stop these reminders". */
export function buildReminderMessage(notice: LearnerReminderNotice, now: Date): SlackMessage {
  const one = notice.licenses.length === 1 ? notice.licenses[0] : undefined;
  const headline = one
    ? `:hourglass_flowing_sand: Your license for *${escapeTruncated(one.courseTitle, 120)}* ${endText(one.end, now)}.`
    : `:hourglass_flowing_sand: ${count(notice.licenses.length, 'license')} of yours end soon.`;
  return {
    text: headline,
    blocks: compact([
      section(headline),
      ...notice.licenses.slice(0, 20).flatMap((l) => licenseBlocks(l, now)),
      context('Need more time? Ask for it above. Done with a course? Return the seat so someone else can learn.'),
      actions([button(LearnerActionId.stopReminders, 'Stop these reminders', 'stop')], 'learner_reminder_stop'),
    ]),
  };
}

/** The answer to "Stop these reminders". */
export function buildRemindersStoppedMessage(): SlackMessage {
  const text =
    ':mute: Done: no more reminders before your licenses end. `/licenses mine` and the Home tab still list your licenses.';
  return { text, blocks: [section(text)] };
}
