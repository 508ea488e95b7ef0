/**
 * The reads of `/licenses approvals`: the course requests waiting for a decision in the admin's pools,
 * oldest first, and each pool's free seats from one read of the pools (the paced licensing client,
 * at interactive priority: a person is waiting), never one read per request. A selection is checked
 * here too before anything is decided: each request read again, and every one inside the admin's pools.
 */

import { inScope, type Scope, withinScope } from '../../kernel/domain/scope.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { unscoped } from '../../kernel/services/request-scope.js';
import type { CourseRequest, RequestService } from '../../requests/index.js';
import { type FreeSeats, oldestFirst } from '../domain/plan.js';

/** What the approvals use cases need of the course requests (the composition root's deps.requests). */
export interface ApprovalsPorts {
  requests: Pick<RequestService, 'approve' | 'deny' | 'toWaitlist' | 'get'> & {
    /** The requests of one status, oldest first. */
    byStatus(status: 'pending'): Promise<CourseRequest[]>;
  };
  licensing: LicensingClient;
  logger: Pick<Logger, 'warn'>;
}

export interface WaitingList {
  requests: CourseRequest[];
  free: FreeSeats;
}

/** The requests waiting for a decision in `scope`, oldest first, with their pools' free seats. */
export async function waitingIn(ports: ApprovalsPorts, scope: Scope): Promise<WaitingList> {
  const pending = await ports.requests.byStatus('pending');
  const requests = oldestFirst(withinScope(scope, pending, (r) => r.poolId));
  return { requests, free: await freeSeats(ports, new Set(requests.map((r) => r.poolId))) };
}

/** The free seats of `poolIds`, from one read of the pools; none when it fails (the list says "unknown"). */
export async function freeSeats(ports: Pick<ApprovalsPorts, 'licensing' | 'logger'>, poolIds: ReadonlySet<string>) {
  const free = new Map<string, number>();
  if (poolIds.size === 0) return free;
  try {
    for (const pool of await ports.licensing.pools.list(INTERACTIVE)) {
      if (poolIds.has(pool.id)) free.set(pool.id, pool.availableLicenses);
    }
  } catch (error) {
    ports.logger.warn('approvals: reading the pools failed; free seats shown as unknown', { error: String(error) });
  }
  return free;
}

/** A selection read again: the requests found (oldest first), or the refusal of a forged one. */
export type SelectionCheck =
  | { kind: 'ok'; requests: CourseRequest[]; gone: string[] }
  | { kind: 'outside-scope'; count: number };

/**
 * The selected requests read afresh. One of them outside the admin's pools refuses the whole
 * selection (a forged or outdated submit: nothing is decided); a request that no longer exists is
 * counted as gone.
 */
export async function checkSelection(ports: ApprovalsPorts, ids: readonly string[], scope: Scope) {
  const found: CourseRequest[] = [];
  const gone: string[] = [];
  for (const id of ids) {
    // A record that cannot be read is left as it is, like one that is gone.
    // Read over every pool: one outside the admin's own must be seen to refuse the whole selection.
    const request = await unscoped(() => ports.requests.get(id)).catch(() => undefined);
    if (request) found.push(request);
    else gone.push(id);
  }
  const outside = found.filter((r) => !inScope(scope, r.poolId)).length;
  if (outside > 0) return { kind: 'outside-scope', count: outside } satisfies SelectionCheck;
  return { kind: 'ok', requests: oldestFirst(found), gone } satisfies SelectionCheck;
}
