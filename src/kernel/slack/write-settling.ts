/**
 * The admin's writes left in flight by a process that is gone (docs/records.md, "Writes in flight"):
 * a settle handler per kind registered with the app's settler (services/settle-writes.ts), and the
 * renderer of the DM that tells the admin (slack/settled-write.ts) registered with its notices.
 * Registered once the audit trail exists, before the settler starts.
 */
import type { SettledWriteNotice } from '../domain/settled-write.js';
import type { AuditLog } from '../services/audit.js';
import { registerWriteSettlers } from '../services/settle-writes.js';
import type { AppDeps } from './deps.js';
import { deliverSettledWrite, isSettledWriteNotice } from './settled-write.js';

export function registerWriteSettling(deps: AppDeps, audit: AuditLog): void {
  const { records, intents, settler, outbox, notices } = deps;
  if (!records || !intents || !settler || !outbox || !notices) return;
  registerWriteSettlers(settler, { licensing: deps.licensing, audit, records, intents, outbox, now: deps.now });
  notices.register('settled-write', async (client, notice) => {
    if (!isSettledWriteNotice(notice)) throw new Error('a settled-write notice without its admin');
    await deliverSettledWrite(client, notice as SettledWriteNotice, deps.sandbox);
  });
}
