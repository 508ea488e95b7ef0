import { describe, expect, it } from 'vitest';
import { calendarDayOf, formatDateTime, normalizeDateTime, parseCalendarDay } from '../../../local/sandbox/dates.js';
import { ApiError } from '../../../local/sandbox/errors.js';
import { isEmail, paginate, readAssignBody, readListParams } from '../../../local/sandbox/validate.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
};

describe('dates', () => {
  it('formats date-times as the contract shows them, without milliseconds', () => {
    expect(formatDateTime(new Date('2024-04-17T15:23:08.987Z'))).toBe('2024-04-17T15:23:08+00:00');
    expect(normalizeDateTime('2024-04-17T17:23:08+02:00')).toBe('2024-04-17T15:23:08+00:00');
    expect(normalizeDateTime('not a date')).toBeUndefined();
    expect(calendarDayOf('2024-04-17T23:30:00-02:00')).toBe('2024-04-18');
  });

  it('accepts only real calendar days written YYYY-MM-DD', () => {
    expect(parseCalendarDay('2024-02-29')).toBe('2024-02-29');
    for (const bad of [
      '2025-02-29',
      '2025-13-01',
      '2025-04-31',
      '2025-4-01',
      '2025-04-01T00:00:00Z',
      '01/04/2025',
      '',
    ]) {
      expect(parseCalendarDay(bad), bad).toBeUndefined();
    }
  });
});

describe('request bodies', () => {
  it('reads an assign body with its defaults', () => {
    expect(readAssignBody({ email: ' a@contoso.com ' })).toEqual({ email: 'a@contoso.com', recycle: false });
    expect(readAssignBody({ email: 'a@contoso.com', name: ' Ann ', endDate: '2025-01-31', recycle: true })).toEqual({
      email: 'a@contoso.com',
      name: 'Ann',
      endDate: '2025-01-31',
      recycle: true,
    });
    expect(readAssignBody({ email: 'a@contoso.com', name: '   ' })).not.toHaveProperty('name');
    expect(codeOf(() => readAssignBody({}))).toBe('invalid_body');
    expect(codeOf(() => readAssignBody({ email: 'a@contoso.com', endDate: '2025-02-30' }))).toBe('invalid_date');
  });

  it('tells e-mail addresses from other strings', () => {
    expect(isEmail('first.last+tag@sub.contoso.com')).toBe(true);
    for (const bad of ['plain', 'a@b', 'a b@contoso.com', '<a>@contoso.com', 'a@@contoso.com', 'a@-x.com']) {
      expect(isEmail(bad), bad).toBe(false);
    }
  });
});

describe('list parameters', () => {
  it('defaults to page 1 of 10 and caps the page size', () => {
    expect(readListParams(new URLSearchParams(''), 100)).toEqual({ page: 1, pageSize: 10, includeInactive: false });
    expect(readListParams(new URLSearchParams('page=3&pageSize=100&includeInactive=TRUE'), 100)).toEqual({
      page: 3,
      pageSize: 100,
      includeInactive: true,
    });
    expect(codeOf(() => readListParams(new URLSearchParams('pageSize=101'), 100))).toBe('invalid_query');
    expect(codeOf(() => readListParams(new URLSearchParams('page=1e2'), 100))).toBe('invalid_query');
  });

  it('pages a list, with [] past the end', () => {
    const items = [1, 2, 3, 4, 5];
    expect(paginate(items, { page: 2, pageSize: 2, includeInactive: false })).toEqual([3, 4]);
    expect(paginate(items, { page: 3, pageSize: 2, includeInactive: false })).toEqual([5]);
    expect(paginate(items, { page: 4, pageSize: 2, includeInactive: false })).toEqual([]);
  });
});
