import { describe, expect, it } from 'vitest';
import { poolWarnings } from '../../../src/kernel/domain/pool-warnings.js';
import { inDays, makePool, NOW } from '../../support/fixtures.js';

describe('poolWarnings', () => {
  it.each([
    ['a healthy pool', {}, []],
    ['a full pool', { availableLicenses: 0 }, ['full']],
    ['a pool ending in 30 days', { end: inDays(30) }, ['ending-soon']],
    ['a pool ending in 31 days', { end: inDays(31) }, []],
    ['a full pool ending in 5 days', { availableLicenses: 0, end: inDays(5) }, ['full', 'ending-soon']],
    ['an ended pool (full or not)', { availableLicenses: 0, end: inDays(-1) }, ['ended']],
    ['an over-assigned pool', { availableLicenses: -2 }, ['full']],
  ] as const)('%s', (_name, over, expected) => {
    expect(poolWarnings(makePool(over), NOW)).toEqual(expected);
  });
});
