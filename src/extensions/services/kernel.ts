/**
 * What every extension request use case shares: its options, the clock, a transaction whose queued
 * notices are sent once it committed, the message that tells of a new state (once per state), and
 * the audit entry about a request.
 */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { WorkTracker } from '../../kernel/services/work-tracker.js';
import type { Intents } from '../../kernel/services/writes/intents.js';
import type { ExtensionStore } from '../db/store.js';
import type { ExtensionNotice, ExtensionRequest } from '../domain/extensions.js';

export interface ExtensionServiceOptions {
  store: ExtensionStore;
  /** Approve's write is recorded before it is sent (an open intent), closed with its outcome. */
  intents: Intents;
  outbox: Outbox & { kick?: () => void };
  licensing: LicensingClient;
  audit: AuditLog;
  now: () => Date;
  logger: Logger;
  /** The course requests' REQUEST_REMIND_HOURS and REQUEST_EXPIRY_DAYS. */
  timers: { remindAfterMs: number; expireAfterMs: number };
  /** The course requests' REQUEST_MAX_PER_DAY: asks for more time one person may make in 24 hours. */
  maxPerDay: number;
  work?: WorkTracker | undefined;
  /** A write whose outcome the database did not take: the settler reads it back once it answers. */
  settleLater?: ((intentId: string) => void) | undefined;
}

/** Who acts when License Desk decides by itself (an expiry): the audit's actor. */
export const DESK = 'license-desk';

export type ExtensionKernel = ReturnType<typeof createExtensionKernel>;

export function createExtensionKernel(opts: ExtensionServiceOptions) {
  const stamp = () => opts.now().toISOString();
  const txn: ExtensionStore['transaction'] = async (fn) => {
    try {
      return await opts.store.transaction(fn);
    } finally {
      opts.outbox.kick?.();
    }
  };
  const tell = (trx: Parameters<Outbox['enqueue']>[0], notice: ExtensionNotice, key: string) =>
    opts.outbox.enqueue(trx, notice, key);
  /** The cards show the request's new state; the learner hears an outcome once (`tellLearner`). */
  const changed = (trx: Parameters<Outbox['enqueue']>[0], r: ExtensionRequest, tellLearner: boolean, tag = '') =>
    tell(
      trx,
      { kind: 'extension-changed', extensionId: r.id, status: r.status, tellLearner },
      `extension:${r.id}:${r.status}${tag}`,
    );
  async function audit(
    actor: string,
    action: AuditEntry['action'],
    outcome: AuditEntry['outcome'],
    r: ExtensionRequest,
    detail?: string,
  ): Promise<void> {
    try {
      await opts.audit.record({
        at: stamp(),
        actor,
        action,
        outcome,
        poolId: r.poolId,
        licenseId: r.licenseId,
        courseTitle: r.courseTitle,
        studentEmail: r.requesterEmail,
        requester: r.requester,
        requestId: r.id,
        endDate: r.endDate,
        ...(detail ? { detail } : {}),
      });
    } catch (error) {
      opts.logger.warn('could not record the audit entry of an extension request', { action, error: String(error) });
    }
  }
  return { opts, stamp, txn, tell, changed, audit };
}
