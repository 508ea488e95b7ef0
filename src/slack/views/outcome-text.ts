/**
 * A write's outcome in words for the person (escaped mrkdwn) and for the audit trail (plain). After
 * an unclear answer we say what reading back found, and never suggest sending the same write blind.
 */

import { studentWords } from '../../blocks/change-words.js';
import { buildErrorMessage } from '../../blocks/common.js';
import type { SlackMessage } from '../../blocks/kit.js';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import { buildOutcomeMessage, buildOutcomeModal, type Outcome } from '../../blocks/outcome.js';
import { buildNotRevokableMessage } from '../../blocks/revoke-confirm.js';
import { StoppedError } from '../../licensing/errors.js';
import type { RevokeOutcome } from '../../services/revoke.js';
import type { WriteOutcome } from '../../services/write-outcome.js';
import { presentError, type Subject } from '../present.js';

/** A form whose private_metadata did not decode: expired, or altered on the way. */
export const EXPIRED = buildOutcomeModal({
  title: 'License Desk',
  tone: 'info',
  headline: 'This form has expired or was altered; nothing was changed. Please start again.',
});

export const LOST = 'The licensing service stopped answering mid-way, so I read it back:';

export interface WriteWords<T> {
  /** The sentence for success, mrkdwn. */
  done(value: T): string;
  /** What did not happen, e.g. "no license was assigned to ada@example.com" (mrkdwn). */
  notDone: string;
  /** How to check by hand, e.g. "`/licenses find ada@example.com`". */
  check: string;
  subject: Subject;
}

export function describeWrite<T>(outcome: WriteOutcome<T>, words: WriteWords<T>): Outcome {
  switch (outcome.kind) {
    case 'done':
      return outcome.checked
        ? { tone: 'done', headline: words.done(outcome.value), details: [`_${LOST} the change is there._`] }
        : { tone: 'done', headline: words.done(outcome.value) };
    case 'refused':
    case 'failed': {
      const sentence = escapeMrkdwn(presentError(outcome.error, words.subject, 'admin'));
      // A write still queued when License Desk stopped was never sent.
      const sure = outcome.kind === 'refused' || outcome.error instanceof StoppedError;
      const nothing = sure ? ['Nothing was changed.'] : [];
      return { tone: outcome.kind, headline: sentence, details: nothing };
    }
    case 'not-done':
      return {
        tone: 'failed',
        headline: `${LOST} ${words.notDone}. Nothing was changed; you can try again.`,
      };
    case 'unknown':
      return {
        tone: 'unknown',
        headline:
          outcome.error.kind === 'stopped'
            ? 'License Desk is restarting and stopped waiting for the licensing service, so I could not tell whether the change was made.'
            : 'The licensing service stopped answering mid-way, and I could not read back whether the change was made.',
        details: [`Please check with ${words.check} before trying again; I did not send it twice.`],
      };
  }
}

/** The answer to "Revoke now", from the use case's outcome (services/revoke.ts). */
export function revokeOutcomeMessage(outcome: RevokeOutcome): SlackMessage {
  if (outcome.kind === 'unread') {
    return buildErrorMessage(`${presentError(outcome.error, 'license', 'admin')} Nothing was revoked.`);
  }
  const { license, pool } = outcome;
  if (outcome.kind === 'blocked') return buildNotRevokableMessage(license, pool, outcome.blocker);
  const id = escapeMrkdwn(license.id);
  const seat = pool?.transferable ? ' The seat is back in the pool.' : '';
  return buildOutcomeMessage(
    describeWrite(outcome.write, {
      done: () => `Revoked license \`${id}\` of ${studentWords(license.student)}; their access ended now.${seat}`,
      notDone: `license \`${id}\` was not revoked`,
      check: `\`/licenses show ${id}\``,
      subject: 'license',
    }),
  );
}
