/** What every use case of leavers is given (composed in slack/start.ts). */
import type { ChangeContext } from '../../changes/index.js';
import type { Records } from '../../kernel/db/open.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { LeaverHolds } from '../db/holds.js';
import type { LeaverSettings } from '../domain/leavers.js';

export interface LeaversOptions {
  records: Records;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The revoke use case's context (audit trail, intents, the waitlist's hand-on). */
  change: () => ChangeContext;
  now: () => Date;
  settings: LeaverSettings;
  /** The alert channel (ALERT_CHANNEL, else AUDIT_CHANNEL); unset: no channel post. */
  channel?: string | undefined;
  logger: Logger;
  /** Settles the writes in flight of processes that are gone (the settler's round). */
  settle?: () => Promise<unknown>;
  /** Tells the return job that a hold is due now (LEAVER_GRACE_DAYS=0). */
  kick?: () => void;
}

export interface LeaversContext extends LeaversOptions {
  store: LeaverHolds;
}
