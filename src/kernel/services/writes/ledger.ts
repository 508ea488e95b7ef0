/**
 * The admin's licensing writes, recorded before they are sent (docs/records.md, "Writes in flight"):
 * an intent is opened before the POST/PATCH/DELETE and closed with the outcome once the answer (or
 * the read-back after an unclear one) is in. An intent left open by a process that died is settled
 * at the next start by reading back (services/settle-writes.ts), never by sending it again.
 *
 * Kinds: 'assign' (one assign, also the atomic `recycle: true` and a retry after a recycle),
 * 'recycle' (a chosen license revoked, then the seat assigned: two writes under one intent),
 * 'end-date', 'revoke'. A course request's assign records its own intent (not these).
 */
import type { Records } from '../../db/open.js';
import type { License } from '../../domain/types.js';
import type { IntentInput, Intents } from './intents.js';
import { WriteNotRecordedError } from './not-recorded.js';
import { auditOutcomeOf, type WriteOutcome } from './outcome.js';

export const WRITE_KINDS = ['assign', 'recycle', 'end-date', 'revoke'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/** What an 'assign' intent carries: what was sent and what its audit entry needs. */
export interface AssignIntentBody {
  action: 'assign' | 'recycle';
  params: { poolId: string; email: string; name?: string; endDate?: string; recycle?: boolean };
  courseTitle?: string;
  detail?: string;
}

/** A 'revoke' intent: the license as read just before the DELETE. */
export interface RevokeIntentBody {
  license: License;
  courseTitle?: string;
  /**
   * Not an admin's revoke: the automatic return of a finished seat (its audit action and completion
   * day), the return of a leaver's seat after the grace, or a seat given back by its holder (`returned`).
   */
  as?: { action: 'auto-returned'; completedOn: string } | { action: 'leaver-returned' } | { action: 'returned' };
}

/** An 'end-date' intent: the PATCH's day, and the license as read just before. */
export interface EndDateIntentBody {
  licenseId: string;
  endDate: string;
  /** The day was in the past: the PATCH ends the license now. */
  past: boolean;
  license: License;
  courseTitle?: string;
}

/** A 'recycle' intent: the license to revoke, then the assign of the freed seat. */
export interface RecycleIntentBody {
  revoke: License;
  params: { poolId: string; email: string; name?: string; endDate?: string };
  courseTitle?: string;
}

/** Opens and closes intents, each in a transaction of its own (no licensing call inside one). */
export interface WriteLedger {
  open(input: IntentInput & { kind: WriteKind }): Promise<string>;
  close(id: string, outcome: unknown): Promise<void>;
}

export function createWriteLedger(records: Records, intents: Pick<Intents, 'open' | 'close'>): WriteLedger {
  return {
    // On disk before the write is sent, even across a power cut (Records.durably).
    open: (input) => records.durably(() => records.db.transaction().execute((trx) => intents.open(trx, input))),
    close: (id, outcome) => records.db.transaction().execute((trx) => intents.close(trx, id, outcome)),
  };
}

/** An intent opened for a write, to be closed once the outcome is audited. */
export interface OpenWrite {
  /**
   * Closes the intent with the outcome. An outcome still unknown (the answer was lost and the
   * read-back failed, or License Desk stopped before the answer) leaves it open: the next start
   * settles it by reading back. A close that fails leaves it open too (settled later, never resent).
   */
  end(outcome: WriteOutcome<unknown>, facts?: Record<string, unknown>): Promise<void>;
}

const NOTHING_OPEN: OpenWrite = { end: async () => undefined };

/**
 * Opens the intent of a write about to be sent; without a ledger (bulk, tests, the console) nothing
 * is recorded. Throws when the intent cannot be recorded: the caller then sends nothing.
 */
export async function openWrite(
  ledger: WriteLedger | undefined,
  input: IntentInput & { kind: WriteKind },
): Promise<OpenWrite> {
  if (!ledger) return NOTHING_OPEN;
  const id = await ledger.open(input);
  return {
    async end(outcome, facts = {}) {
      if (outcome.kind === 'unknown') return;
      const value = outcome.kind === 'done' ? outcome.value : undefined;
      const licenseId =
        value && typeof value === 'object' && 'id' in value ? { licenseId: String((value as { id: unknown }).id) } : {};
      await ledger.close(id, { outcome: auditOutcomeOf(outcome), ...licenseId, ...facts }).catch(() => undefined);
    },
  };
}

/**
 * Sends a write between its intent and the close: the intent is recorded first, and a write whose
 * intent could not be recorded is not sent (a `failed` outcome that changed nothing). The caller
 * audits the outcome, then calls `end`.
 */
export async function recordedWrite<T>(
  ledger: WriteLedger | undefined,
  input: IntentInput & { kind: WriteKind },
  send: () => Promise<WriteOutcome<T>>,
): Promise<{ write: WriteOutcome<T>; open: OpenWrite }> {
  let open: OpenWrite;
  try {
    open = await openWrite(ledger, input);
  } catch (error) {
    const why = new WriteNotRecordedError('the intent of the write could not be recorded', { cause: error });
    return { write: { kind: 'failed', error: why }, open: NOTHING_OPEN };
  }
  return { write: await send(), open };
}
