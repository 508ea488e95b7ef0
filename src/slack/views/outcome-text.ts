/**
 * A write's outcome in words for the person (escaped mrkdwn) and for the audit trail (plain). After
 * an unclear answer we say what reading back found, and never suggest sending the same write blind.
 */

import { escapeMrkdwn, escapeTruncated, slackDate } from '../../blocks/mrkdwn.js';
import type { Outcome } from '../../blocks/outcome.js';
import type { License, Pool } from '../../domain/types.js';
import { StoppedError } from '../../licensing/errors.js';
import type { AuditEntry } from '../../services/audit.js';
import { auditOutcomeOf, type WriteOutcome } from '../../services/write-outcome.js';
import { presentError, type Subject } from '../present.js';

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

/** The audit detail: why it was refused or failed, or how an unclear answer was resolved. */
export function auditDetail(outcome: WriteOutcome<unknown>, subject: Subject): string | undefined {
  switch (outcome.kind) {
    case 'done':
      return outcome.checked ? 'answer lost; confirmed by reading back' : undefined;
    case 'refused':
    case 'failed':
      return presentError(outcome.error, subject, 'admin');
    case 'not-done':
      return 'answer lost; reading back showed nothing changed';
    case 'unknown':
      return outcome.error.kind === 'stopped'
        ? 'License Desk stopped before the licensing service answered; outcome unknown, check it'
        : 'answer lost; reading back failed too';
  }
}

export function auditOf(
  action: AuditEntry['action'],
  actor: string,
  outcome: WriteOutcome<unknown>,
  facts: Omit<AuditEntry, 'at' | 'actor' | 'action' | 'outcome'>,
  now: Date,
  subject: Subject,
): AuditEntry {
  const detail = [facts.detail, auditDetail(outcome, subject)].filter(Boolean).join('; ');
  return {
    at: now.toISOString(),
    actor,
    action,
    outcome: auditOutcomeOf(outcome),
    ...facts,
    ...(detail ? { detail } : {}),
  };
}

/** "license `5001` of *Course* (pool `2003`)": the course by its title when the pool is known. */
export function licenseName(license: License, pool: Pool | undefined): string {
  const course = pool ? `*${escapeTruncated(pool.course.title, 200)}*` : `course \`${escapeMrkdwn(license.courseId)}\``;
  return `license \`${escapeMrkdwn(license.id)}\` of ${course} (pool \`${escapeMrkdwn(license.poolId)}\`)`;
}

export function licenseFacts(license: License, pool: Pool | undefined): string {
  return `${licenseName(license, pool)}, ends ${slackDate(license.end)}`;
}

export function studentWords(student: { name?: string | undefined; email: string }): string {
  const name = student.name ? `*${escapeTruncated(student.name, 100)}* ` : '';
  return `${name}${escapeTruncated(student.email, 254)}`;
}

export function studentFacts(
  license: License,
): Pick<AuditEntry, 'studentName' | 'studentEmail' | 'licenseId' | 'poolId'> {
  return {
    licenseId: license.id,
    poolId: license.poolId,
    studentName: license.student.name,
    studentEmail: license.student.email,
  };
}
