import { describe, expect, it } from 'vitest';
import { aboutDuration, limitWaitText } from '../../../src/kernel/blocks/limit-wait.js';

describe('the words of a wait for the licensing limit', () => {
  it.each([
    [400, 'about 1 second'],
    [3_200, 'about 4 seconds'],
    [38_500, 'about 40 seconds'],
    [57_000, 'about 55 seconds'],
    [61_000, 'about a minute'],
    [150_000, 'about 3 minutes'],
  ])('%d ms -> %s', (ms, words) => {
    expect(aboutDuration(ms)).toBe(words);
  });

  it('names the limit and its window', () => {
    expect(limitWaitText({ waitMs: 40_000, limit: 25, windowMs: 60_000 })).toBe(
      "Waiting for the licensing API's limit of 25 requests a minute: about 40 seconds.",
    );
    expect(limitWaitText({ waitMs: 2_500, limit: 25, windowMs: 3_000 })).toBe(
      "Waiting for the licensing API's limit of 25 requests every 3 seconds: about 3 seconds.",
    );
  });
});
