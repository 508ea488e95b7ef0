import { describe, expect, it } from 'vitest';
import { availabilityBar, escapeMrkdwn, escapeTruncated, slackDate, truncate } from '../../../src/blocks/mrkdwn.js';

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

describe('slackDate', () => {
  it('renders a Slack date with a YYYY-MM-DD fallback', () => {
    expect(slackDate('2027-01-01T00:00:00+00:00')).toBe('<!date^1798761600^{date_short}|2027-01-01>');
  });
  it('takes a token and a fallback', () => {
    expect(slackDate('2027-01-01T00:00:00+00:00', '{date_long}', 'New Year')).toBe(
      '<!date^1798761600^{date_long}|New Year>',
    );
  });
  it('shows an unparsable date as escaped text', () => {
    expect(slackDate('<!here>')).toBe('&lt;!here&gt;');
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
