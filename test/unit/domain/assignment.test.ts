import { describe, expect, it } from 'vitest';
import * as assignment from '../../../src/changes/domain/assignment.js';
import { inDays, makePool, makeStudentCourse, NOW } from '../../support/fixtures.js';

describe('poolBlocker and needsRecycle', () => {
  it('an ended pool and a full untransferable pool cannot give a seat; a full transferable one can recycle', () => {
    expect(assignment.poolBlocker(makePool(), NOW)).toBeUndefined();
    expect(assignment.poolBlocker(makePool({ end: inDays(-1) }), NOW)).toBe('ended');
    expect(assignment.poolBlocker(makePool({ availableLicenses: 0, transferable: false }), NOW)).toBe(
      'full-untransferable',
    );
    expect(assignment.poolBlocker(makePool({ availableLicenses: 0 }), NOW)).toBeUndefined();
    expect(assignment.needsRecycle(makePool({ availableLicenses: 0 }))).toBe(true);
    expect(assignment.needsRecycle(makePool())).toBe(false);
  });
});

describe('validateAssignment', () => {
  const base = {
    pool: makePool(),
    email: 'ada@contoso.com',
    endDate: undefined,
    allowedDomains: ['contoso.com'],
    recycle: false,
  };

  it('passes a plain assignment', () => {
    expect(assignment.validateAssignment(base, NOW)).toEqual([]);
  });

  it('flags the domain only for transferable pools, any case', () => {
    expect(assignment.validateAssignment({ ...base, email: 'a@outlook.com' }, NOW)).toEqual([
      { field: 'email', kind: 'domain', allowed: ['contoso.com'] },
    ]);
    expect(assignment.validateAssignment({ ...base, email: 'a@CONTOSO.com' }, NOW)).toEqual([]);
    expect(
      assignment.validateAssignment({ ...base, email: 'a@outlook.com', pool: makePool({ transferable: false }) }, NOW),
    ).toEqual([]);
    expect(assignment.validateAssignment({ ...base, email: 'a@outlook.com', allowedDomains: [] }, NOW)).toEqual([]);
  });

  it('asks for recycle on a full transferable pool, and the date rules', () => {
    const full = makePool({ availableLicenses: 0 });
    expect(assignment.validateAssignment({ ...base, pool: full }, NOW).map((p) => p.kind)).toEqual([
      'full-needs-recycle',
    ]);
    expect(assignment.validateAssignment({ ...base, pool: full, recycle: true }, NOW)).toEqual([]);
    expect(assignment.validateAssignment({ ...base, endDate: '2026-02-27' }, NOW).map((p) => p.kind)).toEqual(['past']);
    expect(assignment.validateAssignment({ ...base, endDate: '2026-03-01' }, NOW)).toEqual([]);
    const after = inDays(201).slice(0, 10);
    expect(assignment.validateAssignment({ ...base, endDate: after }, NOW).map((p) => p.kind)).toEqual([
      'after-pool-end',
    ]);
  });
});

describe('activeEnrollment', () => {
  it('finds an active, running license of the course only', () => {
    expect(assignment.activeEnrollment([makeStudentCourse()], 'c1', NOW)?.licenseId).toBe('5001');
    expect(assignment.activeEnrollment([makeStudentCourse({ licenseActive: false })], 'c1', NOW)).toBeUndefined();
    expect(assignment.activeEnrollment([makeStudentCourse({ end: inDays(-1) })], 'c1', NOW)).toBeUndefined();
    expect(assignment.activeEnrollment([makeStudentCourse()], 'c2', NOW)).toBeUndefined();
  });
});
