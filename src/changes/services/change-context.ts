/**
 * What a change use case needs, whoever asks for it (a Slack click or form, a bulk line, the local
 * console, a self-service request): the licensing client, the audit trail, the clock and the work
 * tracker a stop waits for. No Slack types: the caller turns the typed outcome into words.
 */

import type { Records } from '../../kernel/db/open.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { WorkTracker } from '../../kernel/services/work-tracker.js';
import type { WriteLedger } from '../../kernel/services/writes/ledger.js';
import type { SeatHandOn } from '../../requests/index.js';

export interface ChangeContext {
  licensing: LicensingClient;
  audit: AuditLog;
  now: () => Date;
  /** Writes run as tracked work, so a stop lets them finish (docs/shutdown.md). */
  work?: WorkTracker | undefined;
  /**
   * Records each write before it is sent and closes it with the outcome (services/writes/ledger.ts), so
   * a write in flight when the process is killed is settled at the next start; absent: not recorded.
   */
  writes?: WriteLedger | undefined;
  /**
   * Told when a change may have freed a seat in a pool (a revoke, an end date moved to today or
   * earlier), so that a waitlist can fill it at once; absent when nothing waits for seats.
   */
  seats?:
    | {
        noticeSeat(poolId: string): void;
        /** A revoke freed a seat: give it to the first in line, and say where it went (a bounded wait). */
        handOn?(poolId: string): Promise<SeatHandOn>;
      }
    | undefined;
}

/**
 * What a job that returns seats on its own is given (the automatic return of finished seats, leavers'
 * returns): the records, the licensing client, the outbox, the revoke use case's context, the clock,
 * the alert channel of its post, and the settler's round for a write a gone process left in flight.
 */
export interface SeatReturnJobOptions {
  records: Records;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The revoke use case's context (audit trail, intents, the waitlist's hand-on). */
  change: () => ChangeContext;
  now: () => Date;
  /** The alert channel (ALERT_CHANNEL, else AUDIT_CHANNEL); unset: no channel post. */
  channel?: string | undefined;
  logger: Logger;
  /** Settles the writes in flight of processes that are gone (the settler's round). */
  settle?: () => Promise<unknown>;
}
