/**
 * What every extension request use case shares: its options, the clock, a transaction whose queued
 * notices are sent once it committed, the message that tells of a new state (once per state), and
 * the audit entry about a request.
 */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { RequestServiceOptions, RequestTimers } from '../../requests/index.js';
import type { ExtensionStore } from '../db/store.js';
import type { ExtensionNotice, ExtensionRequest } from '../domain/extensions.js';

/** The course requests' service parts (records, outbox, licensing, audit, clock), with its own store and limits. */
export type ExtensionServiceOptions = Pick<
  RequestServiceOptions,
  'intents' | 'outbox' | 'licensing' | 'audit' | 'now' | 'logger' | 'work' | 'settleLater'
> & {
  store: ExtensionStore;
  /** The course requests' REQUEST_REMIND_HOURS and REQUEST_EXPIRY_DAYS. */
  timers: RequestTimers;
  /** The course requests' REQUEST_MAX_PER_DAY: asks for more time one person may make in 24 hours. */
  maxPerDay: number;
};

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
