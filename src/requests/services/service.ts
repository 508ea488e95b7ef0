/**
 * The use cases of self-service course requests (docs/course-requests.md): create, approve, deny,
 * cancel, put on the waitlist, assign a waitlisted request (the waitlist's assignWaitlisted: a freed
 * seat goes to the first request in line through the same assign as an approval), and the periodic
 * reminder and expiry check. Each owns its fresh reads, its rules, the write, the audit entry and a typed outcome; what
 * people are told goes through RequestNotices, which the Slack layer implements (no Slack types here).
 */
import { inScope } from '../../kernel/domain/scope.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import { createIntake } from './create.js';
import { createDecisions } from './decide.js';
import { createHousekeeping } from './housekeeping.js';
import { createKernel } from './kernel.js';
import { createSeatFreeing } from './seat.js';
import { createSettle } from './settle.js';
import type { RequestService, RequestServiceOptions } from './types.js';
import { createWaitlistCases } from './waitlist-cases.js';

export { newRequestId } from './create.js';
export * from './types.js';

export function createRequestService(opts: RequestServiceOptions): RequestService {
  const k = createKernel(opts);
  const settle = createSettle(k);
  return {
    ...createIntake(k),
    ...createDecisions(k),
    freeSeat: createSeatFreeing(k),
    ...createWaitlistCases(k),
    mine: (userId) => k.store.byRequester(userId),
    async placesOf(requests) {
      // Counted in the line as the waitlist shows it (a row that cannot be read takes no place), one
      // read per pool.
      const places = new Map<string, number>();
      const pools = new Set(requests.filter((r) => r.status === 'waitlisted').map((r) => r.poolId));
      for (const poolId of pools) {
        const line = (await k.store.lines(poolId))[poolId] ?? [];
        line.forEach((e, i) => {
          if (requests.some((r) => r.id === e.requestId)) places.set(e.requestId, i + 1);
        });
      }
      return places;
    },
    // As the person asking sees it: a request for a pool outside their scope is none (request-scope.ts).
    get: async (id) => {
      const request = await k.store.get(id);
      return request && inScope(currentScope(), request.poolId) ? request : undefined;
    },
    check: createHousekeeping(k, settle),
    settle: (intent) => settle.settleAssign(intent.id, intent.subject),
  };
}
