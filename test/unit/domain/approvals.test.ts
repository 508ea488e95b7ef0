/** The rules of approving many at once: the selection kept across pages, the pages' groups, and the shortfall's plan and words. */
import { describe, expect, it } from 'vitest';
import { shortfallSentence } from '../../../src/approvals/blocks/confirm.js';
import { groupsOfPage, planPools } from '../../../src/approvals/domain/plan.js';
import {
  decodeSelection,
  encodeSelection,
  MAX_SELECTED,
  mergePage,
  PAGE_SIZE,
  PER_GROUP,
} from '../../../src/approvals/domain/selection.js';
import { PRIVATE_METADATA_MAX } from '../../../src/kernel/blocks/modal-kit.js';
import { requestIdOf, waitingRequest } from '../../support/approvals.js';

const who = { id: 'U0ASK00001', email: 'ask@contoso.com' };

describe('the selection in private_metadata', () => {
  it('round-trips, and the most it holds fits in 3,000 characters', () => {
    const ids = Array.from({ length: MAX_SELECTED }, (_, i) => requestIdOf(i + 1));
    const raw = encodeSelection({ page: 12, ids });
    expect(raw.length).toBeLessThanOrEqual(PRIVATE_METADATA_MAX);
    expect(decodeSelection(raw)).toEqual({ page: 12, ids });
  });

  it('refuses an altered one', () => {
    expect(decodeSelection('{"p":0,"s":"zz"}')).toBeUndefined();
    expect(decodeSelection('{"p":-1,"s":""}')).toBeUndefined();
    expect(decodeSelection('not json')).toBeUndefined();
    expect(decodeSelection(JSON.stringify({ p: 0, s: '0'.repeat(12 * (MAX_SELECTED + 1)) }))).toBeUndefined();
  });

  it('takes a page’s ticks as they are and keeps the other pages’', () => {
    const [a, b, c, d] = [1, 2, 3, 4].map(requestIdOf) as [string, string, string, string];
    expect(mergePage([a, c], [a, b], [b])).toEqual([c, b]);
    expect(mergePage([a], [b, d], ['r-forged', d])).toEqual([a, d]);
  });
});

describe('the list’s pages and the shortfall', () => {
  it('cuts a page into groups of one pool and at most ten', () => {
    const requests = Array.from({ length: 60 }, (_, i) => waitingRequest(i + 1, i < 25 ? '2002' : '2005', who));
    const groups = groupsOfPage(requests, 0);
    expect(groups.map((g) => [g.poolId, g.requests.length])).toEqual([
      ['2002', PER_GROUP],
      ['2002', PER_GROUP],
      ['2002', 5],
      ['2005', 10],
      ['2005', 5],
    ]);
    expect(groups.flatMap((g) => g.requests)).toHaveLength(PAGE_SIZE);
  });

  it('gives the free seats to the oldest and says what happens to the rest', () => {
    const requests = [5, 1, 4, 2, 3].map((n) => waitingRequest(n, '2005', who));
    const [plan] = planPools(requests, new Map([['2005', 3]]));
    expect(plan).toMatchObject({ poolId: '2005', selected: 5, free: 3, assigned: 3, rest: 2 });
    if (!plan) throw new Error('no plan');
    expect(shortfallSentence(plan, true)).toBe(
      'Pool 2005 (Power Query Fundamentals) has 3 free seats for 5 requests: the 3 oldest are assigned, the other 2 go to the waitlist.',
    );
    expect(shortfallSentence({ ...plan, free: 0, assigned: 0, rest: 5 }, false)).toBe(
      'Pool 2005 (Power Query Fundamentals) has 0 free seats for 5 requests: none is assigned, all 5 get no seat and stay on their cards for you to free a seat or deny.',
    );
  });
});
