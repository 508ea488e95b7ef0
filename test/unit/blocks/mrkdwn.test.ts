import { describe, expect, it } from 'vitest';
import {
  availabilityBar,
  dayText,
  escapeMrkdwn,
  escapeTruncated,
  slackMoment,
  truncate,
} from '../../../src/kernel/blocks/mrkdwn.js';

describe('escapeMrkdwn', () => {
  it.each([
    ['<!channel>', '&lt;!channel&gt;'],
    ['Tom & Jerry', 'Tom &amp; Jerry'],
    ['&amp;', '&amp;amp;'],
    ['<@U123|bob>', '&lt;@U123|bob&gt;'],
    ['*bold* _it_ "quotes" \'single\'', '*bold* _it_ "quotes" \'single\''],
  ])('%s -> %s', (input, expected) => {
    expect(escapeMrkdwn(input)).toBe(expected);
  });
});

describe('truncate', () => {
  it('leaves short text alone and cuts long text with an ellipsis', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });
  it('never splits an emoji', () => {
    expect(truncate('😀😀😀😀', 3)).toBe('😀😀…');
  });
  it('escapes after cutting, so no half entity is left', () => {
    expect(escapeTruncated('a&b&c&d', 4)).toBe('a&amp;b…');
  });
});

describe('dayText and slackMoment', () => {
  it('shows a calendar day as its UTC day, Jul 28, 2027, whatever the time of day', () => {
    expect(dayText('2027-07-28T23:59:59+00:00')).toBe('Jul 28, 2027');
    expect(dayText('2027-07-28')).toBe('Jul 28, 2027');
    expect(dayText('not a date')).toBe('');
  });
  it("shows a moment in the reader's time zone, with a fallback in the same style", () => {
    expect(slackMoment('2027-01-01T09:30:00Z')).toBe(
      '<!date^1798795800^{date_short} at {time}|Jan 1, 2027 at 09:30 UTC>',
    );
  });
  it('shows an unparsable moment as escaped text', () => {
    expect(slackMoment('<!here>')).toBe('&lt;!here&gt;');
  });
});

describe('availabilityBar', () => {
  it.each([
    [0, 10, '▱▱▱▱▱▱▱▱▱▱'],
    [5, 10, '▰▰▰▰▰▱▱▱▱▱'],
    [10, 10, '▰▰▰▰▰▰▰▰▰▰'],
    [1, 1000, '▰▱▱▱▱▱▱▱▱▱'],
    [12, 0, '▱▱▱▱▱▱▱▱▱▱'],
    [20, 10, '▰▰▰▰▰▰▰▰▰▰'],
  ])('%i of %i', (used, total, bar) => {
    expect(availabilityBar(used, total)).toBe(bar);
  });
});
