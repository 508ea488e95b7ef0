/**
 * `/licenses history`'s words: a subject (an e-mail, auto-linked too; a mention; an id) and a window of
 * days, or one sentence with examples; and its navigation value, which a forged button cannot bend.
 */
import { describe, expect, it } from 'vitest';
import { history } from '../../../src/history/slack/history-command.js';
import { decodeNav, encodeNav, type NavTarget } from '../../../src/kernel/blocks/nav.js';

describe('history words', () => {
  const ok = (words: string[]) => history.parse(words) as NavTarget;
  const problemOf = (words: string[]) => (history.parse(words) as { problem?: string }).problem ?? '';

  it('an e-mail (auto-linked too), a mention, an id with or without #, and days', () => {
    expect(ok(['<mailto:Ada@Contoso.com|Ada@Contoso.com>', '30'])).toEqual({
      view: 'history',
      subject: { kind: 'email', email: 'ada@contoso.com' },
      days: 30,
      page: 1,
    });
    expect(ok(['<@U0ADA00001|ada>'])).toEqual({
      view: 'history',
      subject: { kind: 'user', userId: 'U0ADA00001' },
      page: 1,
    });
    expect(ok(['#2001', '7'])).toMatchObject({ subject: { kind: 'id', id: '2001' }, days: 7 });
  });

  it.each([
    [[], 'Please say whose history to show, as in `/licenses history alberto.rossi@contoso.com`'],
    [['4001', 'abc'], '“abc” is not a number of days: give a whole number from 1 to 36,500'],
    [['4001', '0'], '“0” is not a number of days'],
    [['4001', '-3'], '“-3” is not a number of days'],
    [['4001', '2.5'], '“2.5” is not a number of days'],
    [['4001', '36501'], '“36501” is not a number of days'],
    [['4001', '7', 'more'], '`history` does not take “more”'],
    [['@ada'], 'Slack did not recognise “@ada” as a member'],
    [['<!subteam^S0VIEWERS1|@viewers>'], 'That is a user group'],
    [['ada@'], '“ada@” is not an e-mail address'],
    [['../etc'], 'is neither an e-mail, a Slack member, nor a license or pool id'],
  ])('%j: %s', (words, said) => {
    expect(problemOf(words)).toContain(said);
  });

  it('a forged history button whose subject is not whole is refused by the codec', () => {
    expect(decodeNav('{"v":"history","k":"e","q":"not an email","n":1}')).toBeUndefined();
    expect(decodeNav('{"v":"history","k":"u","n":1}')).toBeUndefined();
    expect(decodeNav('{"v":"history","k":"i","q":"../x","n":1}')).toBeUndefined();
    expect(decodeNav('{"v":"history","k":"i","q":"2001","n":1,"b":-4}')).toBeUndefined();
    const target: NavTarget = { view: 'history', subject: { kind: 'user', userId: 'U0ADA00001' }, page: 2, before: 7 };
    expect(decodeNav(encodeNav(target))).toEqual(target);
  });
});
