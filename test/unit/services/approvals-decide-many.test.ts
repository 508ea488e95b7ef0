/**
 * decideMany's own rules, over a stand-in of the course requests' use cases (their real behaviour is
 * covered end to end in test/app/approvals-decide.test.ts): oldest first, a full pool's approval sent to
 * the waitlist, each outcome counted, and a stop ending the run after its current request.
 */
import { describe, expect, it } from 'vitest';
import { countOf } from '../../../src/approvals/domain/plan.js';
import { decideMany } from '../../../src/approvals/services/decide-many.js';
import type { ApprovalsPorts } from '../../../src/approvals/services/waiting.js';
import type { LicensingClient } from '../../../src/kernel/licensing/types.js';
import type { CourseRequest, DecideOutcome } from '../../../src/requests/index.js';
import { waitingRequest } from '../../support/approvals.js';

const who = { id: 'U0ASK00001', email: 'ask@contoso.com' };

function portsAnswering(outcomes: Record<string, DecideOutcome['kind']>, seen: string[]): ApprovalsPorts {
  const answer = (id: string): DecideOutcome => {
    const request = { id } as CourseRequest;
    switch (outcomes[id]) {
      case 'full':
        return { kind: 'full', request, transferable: false, waitlist: true };
      case 'already':
        return { kind: 'already', request: { ...request, status: 'denied' } };
      default:
        return { kind: 'assigned', request };
    }
  };
  return {
    requests: {
      approve: async (id) => {
        seen.push(id);
        return answer(id);
      },
      deny: async (id) => ({ kind: 'denied', request: { id } as CourseRequest }),
      toWaitlist: async () => ({ kind: 'joined', place: 1 }),
      get: async () => undefined,
      byStatus: async () => [],
    },
    licensing: {} as LicensingClient,
    logger: { warn() {} },
  };
}

describe('decideMany', () => {
  it('decides oldest first and counts what each came to', async () => {
    const requests = [1, 2, 3].map((n) => waitingRequest(n, '2005', who));
    const seen: string[] = [];
    const ids = requests.map((r) => r.id);
    const ports = portsAnswering({ [ids[1] ?? '']: 'full', [ids[2] ?? '']: 'already' }, seen);
    const tally = await decideMany(ports, { kind: 'approve', requests, actor: 'U0MGR00001', gone: ['r00000000ffff'] });
    expect(seen).toEqual(ids);
    expect(tally.ended).toBe('done');
    expect([countOf(tally, 'assigned'), countOf(tally, 'waitlisted'), countOf(tally, 'skipped')]).toEqual([1, 1, 2]);
  });

  it('ends after the current request once the process stops; the rest are left as they are', async () => {
    const requests = [1, 2, 3].map((n) => waitingRequest(n, '2007', who));
    const seen: string[] = [];
    let stopping = false;
    const tally = await decideMany(
      portsAnswering({}, seen),
      { kind: 'approve', requests, actor: 'U0MGR00001' },
      {
        step: async () => {
          stopping = true;
        },
        stopping: () => stopping,
      },
    );
    expect(seen).toHaveLength(1);
    expect(tally.ended).toBe('stopped');
    expect(tally.lines).toHaveLength(1);
  });
});
