/**
 * Revoking asks first: a message naming the student, course and pool, and what
 * follows: access ends now; a transferable pool gets the seat back. Not offered where the license
 * can't be revoked; then the message says why. Pure.
 */
import type { RevokeBlocker } from '../domain/revocation.js';
import { seatReturns } from '../domain/revocation.js';
import type { License, Pool } from '../domain/types.js';
import { ChangeActionId } from './ids.js';
import { actions, button, type SlackMessage, section } from './kit.js';
import { escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

function subject(license: License, pool: Pool | undefined): string {
  const course = pool ? `*${escapeTruncated(pool.course.title, 200)}*` : `course \`${escapeMrkdwn(license.courseId)}\``;
  return `license \`${escapeMrkdwn(license.id)}\` of *${escapeTruncated(license.student.name, 100)}* ${escapeTruncated(license.student.email, 254)} for ${course} (pool \`${escapeMrkdwn(license.poolId)}\`)`;
}

export function buildRevokeConfirmMessage(license: License, pool: Pool | undefined): SlackMessage {
  const seat = seatReturns(pool)
    ? 'The pool is transferable, so the seat goes back to it.'
    : 'The pool is not transferable, so the seat does not come back.';
  const text = `Revoke ${subject(license, pool)}?`;
  return {
    text,
    blocks: [
      section(`:warning: ${text}\nThe student loses access to the course *now*. ${seat}`),
      actions([
        button(ChangeActionId.revokeConfirm, 'Revoke now', license.id, 'danger'),
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
