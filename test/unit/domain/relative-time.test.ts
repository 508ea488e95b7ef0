import { describe, expect, it } from 'vitest';
import { relativeHint } from '../../../src/domain/relative-time.js';
import { inDays, NOW } from '../blocks/fixtures.js';

describe('relativeHint', () => {
  it.each([
    [0.5, 'within a day'],
    [-0.5, 'less than a day ago'],
    [3, 'in 3 days'],
    [13, 'in 13 days'],
    [21, 'in 3 weeks'],
    [-21, '3 weeks ago'],
    [59, 'in 8 weeks'],
    [90, 'in 3 months'],
    [-200, '7 months ago'],
    [800, 'in 2 years'],
  ])('%d days -> %s', (days, hint) => {
    expect(relativeHint(inDays(days), NOW)).toBe(hint);
  });

  it('is empty for an unparsable date', () => {
    expect(relativeHint('not a date', NOW)).toBe('');
  });
});
