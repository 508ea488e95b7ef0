/**
 * What became of a write, for the person who asked for it and for the audit trail. An unclear
 * failure (5xx, reset or timeout after sending: `outcomeUnknown`) is never sent again; it is
 * resolved by reading back (design.md section 3): a repeated assign with `recycle` would end a
 * second license.
 */
import { isLicensingError, type LicensingError } from '../licensing/errors.js';

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
