/**
 * What became of a write, for the person who asked for it (`reportOf`, worded by blocks/outcome.ts)
 * and for the audit trail (`auditOf`: the outcome, and in plain words why it was refused or failed,
 * or how an unclear answer was resolved; never the e-mail in the detail). An unclear failure (5xx,
 * reset or timeout after sending: `outcomeUnknown`) is never sent again; it is resolved by reading
 * back (design.md section 3): a repeated assign with `recycle` would end a second license.
 */
import type { AuditEntry } from '../../domain/audit-entry.js';
import type { License } from '../../domain/types.js';
import type { WriteReport } from '../../domain/writes/report.js';
import { isLicensingError, type LicensingError, StoppedError } from '../../licensing/errors.js';
import { errorSentence, type Subject } from '../error-text.js';
import { WriteNotRecordedError } from './not-recorded.js';

export type WriteOutcome<T> =
  /** Done; `checked` when an unclear answer was resolved by reading back. */
  | { kind: 'done'; value: T; checked: boolean }
  /** The service said no (400) or the thing does not exist (404): nothing changed. */
  | { kind: 'refused'; error: LicensingError }
  /** A clear failure before anything changed (busy, token, unreachable). */
  | { kind: 'failed'; error: unknown }
  /** The answer was lost, and reading back showed that nothing changed. */
  | { kind: 'not-done'; error: LicensingError }
  /** The answer was lost, and reading back failed too: nobody knows yet. */
  | { kind: 'unknown'; error: LicensingError };

/** Runs `write`; after an unclear failure asks `readBack` (undefined = not applied) instead of resending. */
export async function runWrite<T>(
  write: () => Promise<T>,
  readBack: () => Promise<T | undefined>,
): Promise<WriteOutcome<T>> {
  try {
    return { kind: 'done', value: await write(), checked: false };
  } catch (error) {
    if (!isLicensingError(error)) return { kind: 'failed', error };
    if (error.kind === 'bad-request' || error.kind === 'not-found') return { kind: 'refused', error };
    if (!error.outcomeUnknown) return { kind: 'failed', error };
    try {
      const found = await readBack();
      return found === undefined ? { kind: 'not-done', error } : { kind: 'done', value: found, checked: true };
    } catch {
      return { kind: 'unknown', error };
    }
  }
}

export type AuditOutcome = 'done' | 'refused' | 'failed' | 'unknown';

export function auditOutcomeOf(outcome: WriteOutcome<unknown>): AuditOutcome {
  if (outcome.kind === 'not-done') return 'failed';
  return outcome.kind;
}

/** The outcome as its answer words it: the error as one sentence for a license admin. */
export function reportOf<T>(outcome: WriteOutcome<T>, subject: Subject): WriteReport<T> {
  switch (outcome.kind) {
    case 'done':
      return { kind: 'done', value: outcome.value, checked: outcome.checked };
    case 'refused':
    case 'failed':
      return {
        kind: outcome.kind,
        sentence: errorSentence(outcome.error, subject, 'admin'),
        // A write still queued when License Desk stopped was never sent.
        nothingChanged:
          outcome.kind === 'refused' ||
          outcome.error instanceof StoppedError ||
          outcome.error instanceof WriteNotRecordedError,
      };
    case 'not-done':
      return { kind: 'not-done' };
    case 'unknown':
      return { kind: 'unknown', stopped: outcome.error.kind === 'stopped' };
  }
}

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
