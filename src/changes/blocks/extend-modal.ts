/**
 * Changing an end date: the current end, the pool end, quick choices (+30 days, +90 days,
 * pool end) and a date picker; a past date asks a second, explicit confirmation. Pure.
 */

import { CallbackId, InputId } from '../../kernel/blocks/ids.js';
import { context, section } from '../../kernel/blocks/kit.js';
import { compactView, input, type ModalView, modal, option } from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { dayOf, dayText, type EndDateBlocker, quickChoices } from '../../kernel/domain/end-date.js';
import type { License, Pool } from '../../kernel/domain/types.js';

export const EXTEND_TITLE = 'Change end date';

export interface ExtendFormInput {
  license: License;
  pool: Pool;
  /** YYYY-MM-DD from `/licenses extend <id> <date>`. */
  initialDate?: string;
  privateMetadata: string;
  now: Date;
}

export function licenseLine(license: License, pool: Pool | undefined): string {
  const course = pool ? `*${escapeTruncated(pool.course.title, 200)}*` : `course \`${escapeMrkdwn(license.courseId)}\``;
  return `License \`${escapeMrkdwn(license.id)}\` of *${escapeTruncated(license.student.name, 100)}* ${escapeTruncated(license.student.email, 254)} for ${course}, pool \`${escapeMrkdwn(license.poolId)}\``;
}

export function quickValue(day: string): string {
  return `day:${day}`;
}

function dateHint(license: License, pool: Pool, hasChoices: boolean): string {
  const limit = `Not after the pool end (${dayText(pool.end)}).`;
  if (hasChoices || dayOf(license.end) < dayOf(pool.end)) return limit;
  return `Before the current end (${dayText(license.end)}), which is the pool end: no later date is possible.`;
}

/**
 * The inline error when the form comes back with nothing picked: what can be picked, as the form
 * showed it (quick choices, or only an earlier date for a license that already ends with its pool).
 * Without the form's snapshot, only that a date is needed.
 */
export function extendNothingPickedText(known: { license: License; pool: Pool } | undefined, now: Date): string {
  if (!known) return 'Pick a new end date.';
  if (quickChoices(known.license, known.pool, now).length > 0) return 'Pick a quick choice or a date.';
  return `Pick a date before ${dayText(known.license.end)}: the license already ends with its pool, so no later date is possible.`;
}

export function buildExtendModal({ license, pool, initialDate, privateMetadata, now }: ExtendFormInput): ModalView {
  const choices = quickChoices(license, pool, now);
  const earlierOnly = choices.length === 0 && dayOf(pool.end) !== '' && dayOf(license.end) >= dayOf(pool.end);
  return modal({
    callbackId: CallbackId.extendForm,
    title: EXTEND_TITLE,
    submit: 'Change',
    close: 'Cancel',
    privateMetadata,
    blocks: compactView([
      section(licenseLine(license, pool)),
      section(`*Current end* ${dayText(license.end)} · *Pool end* ${dayText(pool.end)}`),
      earlierOnly
        ? section(
            ':information_source: This license already ends with its pool, so it cannot be extended: only an earlier end date is possible.',
          )
        : undefined,
      choices.length > 0
        ? input(
            InputId.extendQuick.block,
            'Quick choice',
            {
              type: 'radio_buttons',
              action_id: InputId.extendQuick.action,
              options: choices.map((c) => option(`${c.label} (${dayText(c.day)})`, quickValue(c.day))),
            },
            { optional: true },
          )
        : undefined,
      input(
        InputId.extendDate.block,
        // "Or" only when there is something above to choose instead.
        choices.length > 0 ? 'Or a date' : earlierOnly ? 'Earlier end date' : 'New end date',
        {
          type: 'datepicker',
          action_id: InputId.extendDate.action,
          ...(initialDate ? { initial_date: initialDate } : {}),
        },
        { optional: true, hint: dateHint(license, pool, choices.length > 0) },
      ),
      context(
        'A date in the past ends the license now, and it can never be edited again; you will be asked to confirm.',
      ),
    ]),
  });
}

export interface PastConfirmInput {
  licenseId: string;
  /** Undefined when the form's snapshot is gone: the confirmation then names the license by id. */
  license: License | undefined;
  pool: Pool | undefined;
  day: string;
  privateMetadata: string;
}

export function buildPastDateConfirmView({
  licenseId,
  license,
  pool,
  day,
  privateMetadata,
}: PastConfirmInput): ModalView {
  const what = license ? licenseLine(license, pool) : `License \`${escapeMrkdwn(licenseId)}\``;
  return modal({
    callbackId: CallbackId.extendPastConfirm,
    title: 'End the license now?',
    submit: 'End it now',
    close: 'Cancel',
    privateMetadata,
    blocks: [
      section(`:warning: ${dayText(day) || escapeMrkdwn(day)} is in the past. ${what} *ends now*.`),
      section('*This cannot be undone:* the student loses access at once, and the license can never be edited again.'),
    ],
  });
}

const BLOCKER_TEXT: Record<EndDateBlocker, string> = {
  'pool-unknown': 'its pool could not be read',
  'not-transferable': 'its pool is not transferable, and only licenses of transferable pools can change their end',
  inactive: 'it is no longer active',
  expired: 'it has already expired',
  'not-editable': 'the licensing service marks it as not editable',
};

export function endDateBlockerText(blocker: EndDateBlocker): string {
  return BLOCKER_TEXT[blocker];
}

export function buildExtendBlockedModal(license: License, pool: Pool | undefined, blocker: EndDateBlocker): ModalView {
  return modal({
    callbackId: CallbackId.changeInfo,
    title: EXTEND_TITLE,
    blocks: [
      section(`${licenseLine(license, pool)}: its end date can't be changed, because ${BLOCKER_TEXT[blocker]}.`),
    ],
  });
}
