import { describe, expect, it } from 'vitest';
import type { NavTarget } from '../../../src/blocks/nav.js';
import { type LicensesCommand, parseCommand } from '../../../src/slack/parse.js';

const view = (target: NavTarget): LicensesCommand => ({ kind: 'view', target });

describe('parseCommand: valid commands', () => {
  it.each<[string, LicensesCommand]>([
    ['', { kind: 'help' }],
    ['   ', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP me please', { kind: 'help' }],
    ['pools', view({ v: 'pools', n: 1 })],
    ['pools 3', view({ v: 'pools', n: 3 })],
    ['Pools', view({ v: 'pools', n: 1 })],
    ['pool 101', view({ v: 'pool', p: '101', n: 1, i: 0 })],
    ['pool #101', view({ v: 'pool', p: '101', n: 1, i: 0 })],
    ['pool pbi-2026_a all', view({ v: 'pool', p: 'pbi-2026_a', n: 1, i: 1 })],
    ['pool 101 ALL', view({ v: 'pool', p: '101', n: 1, i: 1 })],
    ['list', view({ v: 'list', n: 1, i: 0 })],
    ['list all', view({ v: 'list', n: 1, i: 1 })],
    ['show 5001', view({ v: 'show', l: '5001' })],
    ['students', view({ v: 'students', n: 1 })],
    ['students 4', view({ v: 'students', n: 4 })],
    ['courses', view({ v: 'courses', n: 1 })],
    ['me', { kind: 'me' }],
    ['find ada@example.com', { kind: 'find', target: { email: 'ada@example.com' } }],
    ['find <mailto:ada@example.com|ada@example.com>', { kind: 'find', target: { email: 'ada@example.com' } }],
    ['find <mailto:ada@example.com>', { kind: 'find', target: { email: 'ada@example.com' } }],
    ['find <@U0ALEX0001>', { kind: 'find', target: { userId: 'U0ALEX0001' } }],
    ['find <@U0ALEX0001|alex.kim>', { kind: 'find', target: { userId: 'U0ALEX0001' } }],
    ['find <@W0ENT00001|ent.user>', { kind: 'find', target: { userId: 'W0ENT00001' } }],
    // Odd Unicode: non-breaking and ideographic spaces, full-width letters, zero-width joiners.
    ['pools\u00a02', view({ v: 'pools', n: 2 })],
    ['\u3000show\u3000\u200b5001', view({ v: 'show', l: '5001' })],
    ['ｐｏｏｌｓ', view({ v: 'pools', n: 1 })],
    ['\tlist \n all ', view({ v: 'list', n: 1, i: 1 })],
  ])('%j', (text, expected) => {
    expect(parseCommand(text)).toEqual(expected);
  });
});

describe('parseCommand: bad input gets help with one sentence', () => {
  it.each<[string, RegExp]>([
    ['frobnicate', /I don't know “frobnicate”/],
    ['<!channel>', /I don't know “<!channel>”/],
    ['pool', /give a pool id/],
    ['pool <script>', /is not a pool id/],
    ['pool 101 102', /`pool` does not take “102”/],
    ['show', /give a license id/],
    ['show 5001 now please', /`show` does not take “now please”/],
    ['show ../../etc', /is not a license id/],
    ['show 😀', /is not a license id/],
    ['find', /say whom to find/],
    ['find not-an-email', /neither an e-mail address nor a Slack member/],
    ['find a@b', /neither/],
    ['find @alex', /pick the person from the list Slack suggests as you type @, or give their e-mail/],
    ['find <!subteam^S0LICMGRS1|@managers>', /user group/],
    ['find ada@example.com bob@example.com', /`find` does not take/],
    ['pools 0', /not a page number/],
    ['pools -1', /not a page number/],
    ['students 1e3', /not a page number/],
    ['students 99999999', /not a page number/],
    ['list active', /`list` does not take “active”/],
    ['me too', /`me` does not take/],
    ['courses 2', /`courses` does not take/],
  ])('%j', (text, reason) => {
    const parsed = parseCommand(text);
    expect(parsed.kind).toBe('help');
    expect(parsed.kind === 'help' ? parsed.reason : '').toMatch(reason);
  });

  it('answers 3,000+ characters with help, without parsing them', () => {
    const parsed = parseCommand(`find ${'a'.repeat(3500)}@example.com`);
    expect(parsed).toEqual({ kind: 'help', reason: 'That was far longer than any /licenses command.' });
  });

  it('quotes at most 40 characters of a long word and strips control characters', () => {
    const parsed = parseCommand(`${'x'.repeat(100)}\u0007`);
    expect(parsed.kind === 'help' ? parsed.reason : '').toBe(`I don't know “${'x'.repeat(40)}…”.`);
  });

  it('never throws, whatever the bytes', () => {
    const samples = ['\ud800', '\u0000\u0001', '<<<>>>', '&amp;&lt;', 'pool \u202e101', 'find <@>', 'find <mailto:|>'];
    for (const s of samples) expect(() => parseCommand(s)).not.toThrow();
  });
});
