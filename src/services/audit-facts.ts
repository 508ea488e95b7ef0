/**
 * The audit entry of a write, made by the use case that sent it: the outcome, and in plain words why
 * it was refused or failed, or how an unclear answer was resolved (never the e-mail in the detail).
 */
import type { License } from '../domain/types.js';
import type { AuditEntry } from './audit.js';
import { errorSentence, type Subject } from './error-text.js';
import { auditOutcomeOf, type WriteOutcome } from './write-outcome.js';

/** The audit detail: why it was refused or failed, or how an unclear answer was resolved. */
export function auditDetail(outcome: WriteOutcome<unknown>, subject: Subject): string | undefined {
  switch (outcome.kind) {
    case 'done':
      return outcome.checked ? 'answer lost; confirmed by reading back' : undefined;
    case 'refused':
    case 'failed':
      return errorSentence(outcome.error, subject, 'admin');
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
