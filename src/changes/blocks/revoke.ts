/**
 * Every message of a revoke, in one builder module. Revoking asks first: a message naming the
 * student, course and pool, and what follows: access ends now; a transferable pool gets the seat
 * back. Not offered where the license can't be revoked; then the message says why. "Revoke now"
 * replaces it with the outcome; Cancel with "nothing was changed". Pure.
 */

import { studentWords } from '../../kernel/blocks/change-words.js';
import { buildErrorMessage } from '../../kernel/blocks/common.js';
import { ChangeActionId } from '../../kernel/blocks/ids.js';
import { actions, button, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeMrkdwn, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { buildOutcomeMessage, describeReport } from '../../kernel/blocks/outcome.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import { type SeatHandOn, whoOf } from '../../requests/index.js';
import { type RevokeBlocker, type RevokeCheck, type RevokeOutcome, seatReturns } from '../domain/revocation.js';

function subject(license: License, pool: Pool | undefined): string {
  const course = pool ? `*${escapeTruncated(pool.course.title, 200)}*` : `course \`${escapeMrkdwn(license.courseId)}\``;
  return `license \`${escapeMrkdwn(license.id)}\` of *${escapeTruncated(license.student.name, 100)}* ${escapeTruncated(license.student.email, 254)} for ${course} (pool \`${escapeMrkdwn(license.poolId)}\`)`;
}

/** `waiting`: how many wait for a seat of the pool (its waitlist), when known. */
export function buildRevokeConfirmMessage(
  license: License,
  pool: Pool | undefined,
  waiting?: number,
  /** The "Revoke now" button's action: App Home's return has its own, so that Home is told the outcome. */
  confirmActionId: string = ChangeActionId.revokeConfirm,
  /** WAITLIST_OFFER_HOURS above 0: the seat is offered to the first in line rather than assigned. */
  offerHours?: number,
): SlackMessage {
  const line = waiting === 1 ? '1 waits' : `${waiting} wait`;
  const seat = !seatReturns(pool)
    ? 'The pool is not transferable, so the seat does not come back.'
    : waiting && waiting > 0
      ? offerHours
        ? `The pool is transferable, so the seat goes back to it and is offered to the first person on its waitlist, held for them ${offerHours} hours (${line}).`
        : `The pool is transferable, so the seat goes back to it and at once to the first person on its waitlist (${line}).`
      : 'The pool is transferable, so the seat goes back to it.';
  const text = `Revoke ${subject(license, pool)}?`;
  return {
    text,
    blocks: [
      section(`:warning: ${text}\nThe student loses access to the course *now*. ${seat}`),
      actions([
        button(confirmActionId, 'Revoke now', license.id, 'danger'),
        button(ChangeActionId.revokeCancel, 'Cancel', license.id),
      ]),
    ],
  };
}

const WHY: Record<RevokeBlocker, string> = {
  'not-revokable':
    'the licensing service does not allow revoking it (licenses of untransferable pools cannot be returned)',
  inactive: 'it is no longer active',
  expired: 'it has already expired',
};

export function buildNotRevokableMessage(
  license: License,
  pool: Pool | undefined,
  blocker: RevokeBlocker,
): SlackMessage {
  const text = `The ${subject(license, pool)} can't be revoked: ${WHY[blocker]}.`;
  return { text, blocks: [section(`:information_source: ${text}`)] };
}

/** What the fresh read allows: the confirmation, why it can't be revoked, or why it could not be read. */
export function buildRevokeCheckMessage(
  check: RevokeCheck,
  waiting?: number,
  confirmActionId?: string,
  offerHours?: number,
): SlackMessage {
  switch (check.kind) {
    case 'unread':
      return buildErrorMessage(check.sentence);
    case 'blocked':
      return buildNotRevokableMessage(check.license, check.pool, check.blocker);
    case 'revokable':
      return buildRevokeConfirmMessage(check.license, check.pool, waiting, confirmActionId, offerHours);
  }
}

/** "Mastering DAX of Alice Example" (mrkdwn): what App Home's result line names. */
function seatOf(license: License, pool: Pool | undefined): string {
  const course = pool ? escapeTruncated(pool.course.title, 100) : `course ${escapeMrkdwn(license.courseId)}`;
  return `*${course}* of *${escapeTruncated(license.student.name || license.student.email, 100)}*`;
}

/**
 * App Home's line about "Return this seat" (one mrkdwn line at the top of Home, shown once): the
 * confirmation waiting in the DM, its outcome, or why there is nothing to return.
 */
export function returnResultLine(result: RevokeCheck | RevokeOutcome): string {
  switch (result.kind) {
    case 'unread':
      return `:warning: Nothing was returned: ${escapeTruncated(result.sentence, 300)}`;
    case 'blocked':
      return `:information_source: Nothing to return: license \`${escapeMrkdwn(result.license.id)}\` (${seatOf(result.license, result.pool)}) can't be revoked: ${WHY[result.blocker]}.`;
    case 'revokable':
      return `:point_right: Confirm the return of ${seatOf(result.license, result.pool)} in your DM with License Desk.`;
    case 'written': {
      const seat = seatOf(result.license, result.pool);
      if (result.write.kind === 'unknown')
        return `:warning: The return of ${seat} is not confirmed yet: see your DM with License Desk.`;
      if (result.write.kind !== 'done')
        return `:warning: The return of ${seat} did not go through: see your DM with License Desk.`;
      const where =
        result.seat?.kind === 'given'
          ? `the seat went to ${whoOf(result.seat.to)} from the waitlist`
          : result.seat?.kind === 'offered'
            ? `the seat is offered to ${whoOf(result.seat.to)} from the waitlist`
            : seatReturns(result.pool)
              ? 'the seat is free again'
              : 'their access ended';
      return `:white_check_mark: Returned ${seat} — ${where}.`;
    }
  }
}

/** The answer to "Revoke now" (services/revoke.ts), replacing the confirmation. */
export function buildRevokeOutcomeMessage(outcome: RevokeOutcome): SlackMessage {
  if (outcome.kind === 'unread') return buildErrorMessage(`${outcome.sentence} Nothing was revoked.`);
  const { license, pool } = outcome;
  if (outcome.kind === 'blocked') return buildNotRevokableMessage(license, pool, outcome.blocker);
  const id = escapeMrkdwn(license.id);
  const seat = seatReturns(pool) ? ` ${seatWords(outcome.seat)}` : '';
  return buildOutcomeMessage(
    describeReport(outcome.write, {
      done: () => `Revoked license \`${id}\` of ${studentWords(license.student)}; their access ended now.${seat}`,
      notDone: `license \`${id}\` was not revoked`,
      check: `\`/licenses show ${id}\``,
    }),
  );
}

/** Where the freed seat went (the waitlist's answer; this reply is the revoking admin's own). */
function seatWords(seat: SeatHandOn | undefined): string {
  switch (seat?.kind) {
    case undefined:
    case 'pool':
      return 'The seat is back in the pool.';
    case 'given':
      return `The seat went to ${whoOf(seat.to)} from the waitlist (license \`${escapeMrkdwn(seat.licenseId)}\`); they have been told by DM.`;
    case 'waiting':
      return `${whoOf(seat.first)} is first on the waitlist for this pool but does not have the seat yet: the waitlist keeps trying, and tells them by DM once it is theirs.`;
    case 'offered':
      return `The seat is offered to ${whoOf(seat.to)}, first on the waitlist, and held for them until ${slackMoment(seat.deadlineAt)}; if they pass it on or let it lapse, it goes to the next in line.`;
    case 'ended':
      return 'The pool has ended, so no seat is freed for anybody; the requests waiting for it have left the waitlist.';
  }
}

/** Cancel: the confirmation is replaced, and the license named when its id is a well-formed one. */
export function buildRevokeCancelledMessage(licenseId: string | undefined): SlackMessage {
  const id = licenseId ? ` \`${escapeMrkdwn(licenseId)}\`` : '';
  return buildOutcomeMessage({ tone: 'info', headline: `Nothing was changed; license${id} stays as it was.` });
}
