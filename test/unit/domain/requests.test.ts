import { describe, expect, it } from 'vitest';
import {
  type CourseRequest,
  cutReason,
  DEFAULT_REQUEST_LIMITS,
  dueAction,
  MAX_REASON,
  neededByProblem,
  prunable,
  reasonProblem,
  requestLimitProblem,
  requestTimers,
  visibleLength,
} from '../../../src/requests/domain/requests.js';
import { sampleRequest } from '../../support/requests.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const req = (id: string, over: Partial<CourseRequest>): CourseRequest => ({ ...sampleRequest(id), ...over });

describe('visibleLength: what a person sees', () => {
  it.each([
    ['plain text', 'Quarterly reporting', 19],
    ['a Slack shortcode is one', ':smile:', 1],
    ['with its skin tone too', ':wave::skin-tone-3:', 1],
    ['an emoji with modifiers is one', '👩‍👩‍👧‍👦👍🏽', 2],
    ['a letter with a combining accent is one', 'e\u0301', 1],
    ['a time is not a shortcode', 'at 10:30: the meeting', 21],
    ['the shortcodes without a letter', ':+1::100:', 2],
  ])('%s', (_what, text, length) => {
    expect(visibleLength(text)).toBe(length);
  });

  it('100 emoji are 100 characters, and the limit says how it counts', () => {
    expect(reasonProblem(':smile:'.repeat(100))).toBeUndefined();
    expect(reasonProblem(':smile:'.repeat(MAX_REASON + 1))).toBe(
      'Please keep the reason to 500 characters (an emoji counts as one); it has 501.',
    );
    expect(visibleLength(cutReason('👍🏽'.repeat(600)))).toBe(MAX_REASON);
    expect(reasonProblem(':man-woman-girl-boy:'.repeat(200))).toContain('written out, its emoji take 4000 characters');
  });
});

describe('visibleLength on long texts: linear, and the same count as the segmenter gives the whole text', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const reference = (text: string) => [...segmenter.segment(text)].length;
  // Clusters of every kind, at every offset against the segmenter's windows: emoji families (ZWJ
  // sequences), skin tones, flags (regional indicator pairs), keycaps, CR LF, combining accents, Hangul
  // jamo, and plain text between them.
  const kinds = ['👩‍👩‍👧‍👦', '👍🏽', '🇮🇹', '1️⃣', '\r\n', 'e\u0301\u0302', '\u1100\u1161\u11a8', 'ab', ' ', 'ü'];
  const mixed = (n: number) => Array.from({ length: n }, (_, i) => kinds[(i * 7 + (i >> 3)) % kinds.length]).join('');

  it.each([100, 1_000, 5_000])('a mix of %i clusters of every kind', (n) => {
    const text = mixed(n);
    expect(visibleLength(text)).toBe(reference(text));
  });

  it('an odd run of flags pairs from its start; a letter under thousands of accents is one', () => {
    const flags = `x${'🇮'.repeat(1001)}`;
    expect(visibleLength(flags)).toBe(reference(flags));
    expect(visibleLength(`e${'\u0301'.repeat(3000)}z`)).toBe(2);
  });

  it('mentions and links count as written (they arrive escaped, as <@U…> and <https://…>); shortcodes as one', () => {
    expect(visibleLength('ask <@U0123ABCD> :smile:')).toBe('ask <@U0123ABCD> '.length + 1);
    expect(visibleLength('see <https://example.com|the page>')).toBe(34);
  });

  it('a 300,000-character reason is refused on its written length, and cut to 500 as a person counts them', () => {
    const huge = '👍🏽 ok '.repeat(40_000);
    expect(reasonProblem(huge)).toBe(
      `Please keep the reason to 500 characters (an emoji counts as one); it has ${huge.length.toLocaleString('en-US')} characters written out.`,
    );
    const cut = cutReason(huge);
    expect(visibleLength(cut)).toBe(MAX_REASON);
    expect(huge.startsWith(cut)).toBe(true);
    expect(cutReason(':smile: '.repeat(1000))).toBe(':smile: '.repeat(250));
  });
});

describe('neededByProblem', () => {
  it('takes today up to a year ahead and refuses a date after the pool’s end', () => {
    expect(neededByProblem('2026-11-25', NOW)).toBeUndefined();
    expect(neededByProblem('2027-11-25', NOW)).toBeUndefined();
    expect(neededByProblem('9999-12-31', NOW)).toBe('Pick a date within a year (by Nov 25, 2027), or leave it empty.');
    expect(neededByProblem('2026-11-24', NOW)).toContain('has passed');
    expect(neededByProblem('2027-01-10', NOW, '2026-12-31T23:59:59+00:00')).toContain(
      'The pool ends on Dec 31, 2026, before that date: pick Dec 31, 2026 or earlier',
    );
  });
});

describe('requestLimitProblem', () => {
  it('refuses a fourth open request and an eleventh in 24 hours; cancelled ones count for the day', () => {
    const open = ['a', 'b', 'c'].map((x) => req(`r00000000000${x}`, { createdAt: ago(3) }));
    expect(requestLimitProblem(open.slice(0, 2), DEFAULT_REQUEST_LIMITS, NOW)).toBeUndefined();
    expect(requestLimitProblem(open, DEFAULT_REQUEST_LIMITS, NOW)).toContain('at once (3)');
    const cancelled = Array.from({ length: 10 }, (_, i) =>
      req(`r${String(i).padStart(12, '0')}`, { status: 'cancelled', createdAt: ago(0.5 - i / 100) }),
    );
    expect(requestLimitProblem(cancelled, DEFAULT_REQUEST_LIMITS, NOW)).toContain(
      'You can ask again after Nov 26, 2026 at 00:',
    );
    expect(requestLimitProblem(cancelled.slice(1), DEFAULT_REQUEST_LIMITS, NOW)).toBeUndefined();
  });
});

describe('dueAction of an approval waiting for a seat', () => {
  it('counts from the approval, and only when the approvers have a choice to make', () => {
    const timers = requestTimers(24, 7);
    const approved = req('r0000000000a1', {
      status: 'approved',
      createdAt: ago(30),
      decidedAt: ago(2),
      seatChoice: { transferable: true, waitlist: true },
    });
    expect(dueAction(approved, timers, NOW)).toBe('remind');
    expect(dueAction({ ...approved, remindedAt: ago(1) }, timers, NOW)).toBeUndefined();
    expect(dueAction({ ...approved, decidedAt: ago(8) }, timers, NOW)).toBe('expire');
    const { seatChoice: _, ...unclear } = approved;
    expect(dueAction(unclear, timers, NOW)).toBeUndefined();
  });
});

describe('prunable', () => {
  it('drops decided requests older than 30 days and beyond the newest 1,000, never undecided or new ones', () => {
    const old = req('r0000000000o1', { status: 'denied', createdAt: ago(40), decidedAt: ago(40) });
    const recent = req('r0000000000n1', { status: 'denied', createdAt: ago(5), decidedAt: ago(5) });
    const pending = req('r0000000000p1', { status: 'pending', createdAt: ago(60) });
    expect(prunable([old, recent, pending], NOW)).toEqual([old.id]);
    const many = Array.from({ length: 1005 }, (_, i) =>
      req(`r${String(i).padStart(12, '0')}`, {
        status: 'cancelled',
        createdAt: ago(2 + i / 1000),
        decidedAt: ago(2 + i / 1000),
      }),
    );
    expect(prunable(many, NOW)).toHaveLength(5);
    const today = many.map((r) => ({ ...r, createdAt: ago(0.5), decidedAt: ago(0.5) }));
    expect(prunable(today, NOW)).toEqual([]);
  });
});
