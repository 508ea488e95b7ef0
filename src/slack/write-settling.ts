/**
 * Starts the settling of the admin's writes left in flight by a process that is gone (docs/records.md,
 * "Writes in flight"): the settler with a handler per kind (services/settle-writes.ts), and the outbox
 * that tells the admin by DM (slack/settled-write.ts). Started once the app's client exists.
 */
import type { webApi } from '@slack/bolt';
import type { Records } from '../db/open.js';
import type { LicensingClient, Logger } from '../licensing/types.js';
import type { AuditLog } from '../services/audit.js';
import { createIntents, createSettler } from '../services/intents.js';
import { createOutbox } from '../services/outbox.js';
import { registerWriteSettlers } from '../services/settle-writes.js';
import { deliverSettledWrite, isSettledWriteNotice } from './settled-write.js';

export interface WriteSettling {
  stop(): Promise<void>;
}

export function startWriteSettling(parts: {
  client: webApi.WebClient;
  records: Records;
  licensing: LicensingClient;
  audit: AuditLog;
  logger: Logger;
  now: () => Date;
  sandbox: () => boolean;
  everyMs?: number;
}): WriteSettling {
  const { records, logger, now } = parts;
  const outbox = createOutbox({
    records,
    logger,
    now,
    async deliver(body) {
      if (isSettledWriteNotice(body)) return deliverSettledWrite(parts.client, body, parts.sandbox());
      throw new Error('a notice of a kind this process cannot send');
    },
  });
  const settler = createSettler({ records, logger, now, ...(parts.everyMs ? { everyMs: parts.everyMs } : {}) });
  registerWriteSettlers(settler, {
    licensing: parts.licensing,
    audit: parts.audit,
    records,
    intents: createIntents(records, now),
    outbox,
    now,
  });
  outbox.start();
  settler.start();
  return {
    async stop() {
      await settler.stop();
      await outbox.stop();
    },
  };
}
