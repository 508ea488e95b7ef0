import { describe, expect, it } from 'vitest';
import {
  canChangeEndDate,
  canExtend,
  canRevoke,
  endsWithPool,
  licenseStatus,
} from '../../../src/kernel/domain/license-status.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

describe('licenseStatus', () => {
  it.each([
    ['active far from its end', { active: true, end: inDays(30) }, 'active'],
    ['ending in exactly 7 days', { active: true, end: inDays(7) }, 'ending-soon'],
    ['ending in 8 days', { active: true, end: inDays(8) }, 'active'],
    ['ending in an hour', { active: true, end: inDays(1 / 24) }, 'ending-soon'],
    ['ended a second ago', { active: true, end: new Date(NOW.getTime() - 1000).toISOString() }, 'expired'],
    ['ending exactly now', { active: true, end: NOW.toISOString() }, 'expired'],
    ['inactive, end in the future', { active: false, end: inDays(30) }, 'inactive'],
    ['inactive and past', { active: false, end: inDays(-30) }, 'inactive'],
    ['unparsable end', { active: true, end: 'soon' }, 'active'],
  ] as const)('%s -> %s', (_name, license, status) => {
    expect(licenseStatus(license, NOW)).toBe(status);
  });
});

describe('canChangeEndDate', () => {
  it('needs editable, a transferable pool and a running license', () => {
    expect(canChangeEndDate(makeLicense(), makePool(), NOW)).toBe(true);
    expect(canChangeEndDate(makeLicense({ end: inDays(2) }), makePool(), NOW)).toBe(true);
    expect(canChangeEndDate(makeLicense({ editable: false }), makePool(), NOW)).toBe(false);
    expect(canChangeEndDate(makeLicense(), makePool({ transferable: false }), NOW)).toBe(false);
    expect(canChangeEndDate(makeLicense(), undefined, NOW)).toBe(false);
    expect(canChangeEndDate(makeLicense({ end: inDays(-1) }), makePool(), NOW)).toBe(false);
    expect(canChangeEndDate(makeLicense({ active: false }), makePool(), NOW)).toBe(false);
  });
});

describe('canRevoke', () => {
  it('needs revokable and a running license', () => {
    expect(canRevoke(makeLicense(), NOW)).toBe(true);
    expect(canRevoke(makeLicense({ revokable: false }), NOW)).toBe(false);
    expect(canRevoke(makeLicense({ active: false }), NOW)).toBe(false);
    expect(canRevoke(makeLicense({ end: inDays(-1) }), NOW)).toBe(false);
  });
});

describe('canExtend', () => {
  it('needs a change of end date to be possible and the license to end before its pool', () => {
    const pool = makePool({ end: inDays(60) });
    expect(canExtend(makeLicense({ end: inDays(30) }), pool, NOW)).toBe(true);
    expect(canExtend(makeLicense({ end: inDays(60) }), pool, NOW)).toBe(false);
    expect(endsWithPool(makeLicense({ end: inDays(60) }), pool)).toBe(true);
    expect(canExtend(makeLicense({ end: inDays(30), editable: false }), pool, NOW)).toBe(false);
    expect(canExtend(makeLicense({ end: inDays(30) }), undefined, NOW)).toBe(false);
    // An end that cannot be read does not hide Extend: the form and the API still check it.
    expect(endsWithPool(makeLicense({ end: 'soon' }), pool)).toBe(false);
  });
});
