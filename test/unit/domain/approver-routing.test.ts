/** Who gets a pool's card now and the rules of a delegation: pure, days and the clock given. */
import { describe, expect, it } from 'vitest';
import {
  type Delegation,
  delegationProblem,
  routeCards,
  standsInFor,
} from '../../../src/approvers/domain/delegation.js';

const today = '2026-11-25';
const delegation = (over: Partial<Delegation> = {}): Delegation => ({
  id: 'd1',
  approver: 'UA',
  delegate: 'UD',
  fromDay: '2026-11-24',
  untilDay: '2026-11-26',
  state: 'active',
  createdAt: '2026-11-24T08:00:00.000Z',
  ...over,
});

describe('routing a pool’s card', () => {
  it('goes to each approver once; one away hands it to the delegate, who is told for whom', () => {
    expect(routeCards(['UA', 'UB', 'UA'], [], new Set(), today)).toEqual({
      cards: [{ user: 'UA' }, { user: 'UB' }],
      daily: [],
    });
    expect(routeCards(['UA', 'UB'], [delegation()], new Set(), today).cards).toEqual([
      { user: 'UD', for: 'UA' },
      { user: 'UB' },
    ]);
  });

  it('an approver of the pool in their own right is never "for" someone, and gets one card', () => {
    expect(routeCards(['UA', 'UB'], [delegation({ delegate: 'UB' })], new Set(), today).cards).toEqual([
      { user: 'UB' },
    ]);
  });

  it('waiting, refused, ended or out-of-days delegations change nothing; nor one to the requester', () => {
    for (const d of [
      delegation({ state: 'waiting' }),
      delegation({ state: 'refused' }),
      delegation({ state: 'ended' }),
      delegation({ untilDay: '2026-11-24' }),
      delegation({ fromDay: '2026-11-26' }),
    ]) {
      expect(routeCards(['UA'], [d], new Set(), today).cards).toEqual([{ user: 'UA' }]);
    }
    expect(routeCards(['UA'], [delegation()], new Set(), today, 'UD').cards).toEqual([{ user: 'UA' }]);
  });

  it('whoever chose the daily list gets no card, only the list', () => {
    expect(routeCards(['UA', 'UB'], [delegation()], new Set(['UD']), today)).toEqual({
      cards: [{ user: 'UB' }],
      daily: ['UD'],
    });
  });

  it('a delegate decides for the approver only on a pool that approver approves, while in force', () => {
    expect(standsInFor('UD', ['UA'], [delegation()], today)).toBe('UA');
    expect(standsInFor('UD', ['UX'], [delegation()], today)).toBe(undefined);
    expect(standsInFor('UD', ['UA', 'UD'], [delegation()], today)).toBe(undefined);
    expect(standsInFor('UD', ['UA'], [delegation()], '2026-11-27')).toBe(undefined);
  });
});

describe('a delegation asked for', () => {
  const ask = (over: Partial<Parameters<typeof delegationProblem>[0]>) =>
    delegationProblem({ approver: 'UA', delegate: 'UD', fromDay: today, untilDay: '2026-11-30', ...over }, today);

  it('is refused with one sentence where it is wrong', () => {
    expect(ask({})).toBe(undefined);
    expect(ask({ delegate: undefined })?.field).toBe('delegate');
    expect(ask({ delegate: 'UA' })?.text).toBe('You cannot delegate your approvals to yourself: pick someone else.');
    expect(ask({ fromDay: undefined })?.field).toBe('from');
    expect(ask({ untilDay: '2026-11-20', fromDay: '2026-11-22' })?.text).toMatch(/last day is before the first/);
    expect(ask({ fromDay: '2026-11-01', untilDay: '2026-11-20' })?.text).toMatch(/over already/);
    expect(ask({ untilDay: '2027-12-31' })?.text).toMatch(/a year at most/);
  });
});
