import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/app/commands/index.js';
import type { NavTarget } from '../../../src/kernel/blocks/nav.js';

type Parsed = ReturnType<typeof parseCommand>;
const view = (target: NavTarget): Parsed => ({ name: target.view, args: target });
const HELP: Parsed = { name: 'help', args: {} };

describe('parseCommand: valid commands', () => {
  it.each<[string, Parsed]>([
    ['', HELP],
    ['   ', HELP],
    ['help', HELP],
    ['HELP me please', HELP],
    ['pools', view({ view: 'pools', page: 1 })],
    ['pools 3', view({ view: 'pools', page: 3 })],
    ['Pools', view({ view: 'pools', page: 1 })],
    ['pool 101', view({ view: 'pool', poolId: '101', page: 1, includeInactive: false })],
    ['pool #101', view({ view: 'pool', poolId: '101', page: 1, includeInactive: false })],
    ['pool pbi-2026_a all', view({ view: 'pool', poolId: 'pbi-2026_a', page: 1, includeInactive: true })],
    ['pool 101 ALL', view({ view: 'pool', poolId: '101', page: 1, includeInactive: true })],
    ['list', view({ view: 'list', page: 1, includeInactive: false })],
    ['list all', view({ view: 'list', page: 1, includeInactive: true })],
    ['show 5001', view({ view: 'show', licenseId: '5001' })],
    ['students', view({ view: 'students', page: 1 })],
    ['students 4', view({ view: 'students', page: 4 })],
    ['courses', view({ view: 'courses', page: 1 })],
    ['expiring', view({ view: 'expiring', days: 14, page: 1 })],
    ['expiring 3', view({ view: 'expiring', days: 3, page: 1 })],
    ['Expiring 365', view({ view: 'expiring', days: 365, page: 1 })],
    ['? anything', HELP],
    ['me', { name: 'me', args: {} }],
    ['digest', { name: 'digest', args: {} }],
    ['DIGEST', { name: 'digest', args: {} }],
    ['approvals', { name: 'approvals', args: {} }],
    ['find ada@example.com', { name: 'find', args: { email: 'ada@example.com' } }],
    ['find <mailto:ada@example.com|ada@example.com>', { name: 'find', args: { email: 'ada@example.com' } }],
    ['find <mailto:ada@example.com>', { name: 'find', args: { email: 'ada@example.com' } }],
    ['find <@U0ALEX0001>', { name: 'find', args: { userId: 'U0ALEX0001' } }],
    ['find <@U0ALEX0001|alex.kim>', { name: 'find', args: { userId: 'U0ALEX0001' } }],
    ['find <@W0ENT00001|ent.user>', { name: 'find', args: { userId: 'W0ENT00001' } }],
    // Odd Unicode: non-breaking and ideographic spaces, full-width letters, zero-width joiners.
    ['pools\u00a02', view({ view: 'pools', page: 2 })],
    ['\u3000show\u3000\u200b5001', view({ view: 'show', licenseId: '5001' })],
    ['ｐｏｏｌｓ', view({ view: 'pools', page: 1 })],
    ['\tlist \n all ', view({ view: 'list', page: 1, includeInactive: true })],
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
    ['pools 2 3', /`pools` does not take “3”/],
    ['students 2 next', /`students` does not take “next”/],
    ['list active', /`list` does not take “active”/],
    ['me too', /`me` does not take/],
    ['digest now', /`digest` does not take/],
    ['approvals 2002', /`approvals` does not take “2002”/],
    ['courses 2', /`courses` does not take/],
    ['expiring abc', /“abc” is not a number of days; give 1 to 365/],
    ['expiring 0', /“0” is not a number of days/],
    ['expiring 366', /“366” is not a number of days/],
    ['expiring 1.5', /“1.5” is not a number of days/],
    ['expiring 3 more', /`expiring` does not take “more”/],
  ])('%j', (text, reason) => {
    const parsed = parseCommand(text);
    expect(parsed).toEqual({ problem: expect.stringMatching(reason) });
  });

  it('answers 3,000+ characters with help, without parsing them', () => {
    const parsed = parseCommand(`find ${'a'.repeat(3500)}@example.com`);
    expect(parsed).toEqual({ problem: 'That was far longer than any /licenses command.' });
  });

  it('quotes at most 40 characters of a long word and strips control characters', () => {
    const parsed = parseCommand(`${'x'.repeat(100)}\u0007`);
    expect(parsed).toEqual({ problem: `I don't know “${'x'.repeat(40)}…”.` });
  });

  it('never throws, whatever the bytes', () => {
    const samples = ['\ud800', '\u0000\u0001', '<<<>>>', '&amp;&lt;', 'pool \u202e101', 'find <@>', 'find <mailto:|>'];
    for (const s of samples) expect(() => parseCommand(s)).not.toThrow();
  });
});
