/** The navigation codec: readable targets in code, the wire format of buttons already in Slack unchanged. */
import { describe, expect, it } from 'vitest';
import { decodeNav, encodeNav, type NavTarget } from '../../../src/kernel/blocks/nav.js';

/** Values exactly as the buttons posted before the codec carry them, and the target each means. */
const WIRE: [string, NavTarget][] = [
  ['{"v":"pools","n":2}', { view: 'pools', page: 2 }],
  ['{"v":"pool","p":"2001","n":1,"i":0}', { view: 'pool', poolId: '2001', page: 1, includeInactive: false }],
  ['{"v":"pool","p":"pbi-2026_a","n":3,"i":1}', { view: 'pool', poolId: 'pbi-2026_a', page: 3, includeInactive: true }],
  ['{"v":"list","n":4,"i":1}', { view: 'list', page: 4, includeInactive: true }],
  ['{"v":"students","n":5}', { view: 'students', page: 5 }],
  ['{"v":"courses","n":2}', { view: 'courses', page: 2 }],
  ['{"v":"show","l":"4001"}', { view: 'show', licenseId: '4001' }],
  ['{"v":"expiring","d":30,"n":2}', { view: 'expiring', days: 30, page: 2 }],
];

describe('navigation codec', () => {
  it.each(WIRE)('%s decodes to a readable target and encodes back to the same value', (value, target) => {
    expect(decodeNav(value)).toEqual(target);
    expect(encodeNav(target)).toBe(value);
  });

  it('accepts the keys in any order, as JSON allows', () => {
    expect(decodeNav('{"i":1,"n":2,"p":"2001","v":"pool"}')).toEqual({
      view: 'pool',
      poolId: '2001',
      page: 2,
      includeInactive: true,
    });
  });

  it.each([
    ['not JSON', '{v:pools'],
    ['an unknown view', '{"v":"secrets","n":1}'],
    ['the readable shape (never on the wire)', '{"view":"pools","page":1}'],
    ['a page of 0', '{"v":"pools","n":0}'],
    ['a page past 10,000', '{"v":"students","n":10001}'],
    ['a flag that is not 0 or 1', '{"v":"list","n":1,"i":2}'],
    ['an id with a path in it', '{"v":"show","l":"../../etc"}'],
    ['366 days', '{"v":"expiring","d":366,"n":1}'],
    ['a value over 2,000 characters', `{"v":"show","l":"${'1'.repeat(2000)}"}`],
    ['nothing', undefined],
  ])('refuses %s', (_what, value) => {
    expect(decodeNav(value)).toBeUndefined();
  });

  it('never throws while encoding, even a target the decoder would refuse', () => {
    const value = encodeNav({ view: 'students', page: 10_001 });
    expect(value).toBe('{"v":"students","n":10001}');
    expect(decodeNav(value)).toBeUndefined();
  });
});
