/**
 * Roles kept in the database, as pure rules: a repeated give, how a scope reads in the roles listing and
 * the audit trail, which pools it covers; and the days an approver's delegation holds.
 */
import { describe, expect, it } from 'vitest';
import { type Delegation, dayOf, inForce, live } from '../../../src/approvers/domain/delegation.js';
import { dueOf, weekOf } from '../../../src/leavers/domain/leavers.js';
import {
  covers,
  type GrantScope,
  roleWords,
  sameGrant,
  scopeKey,
  scopePlain,
  scopeWords,
} from '../../../src/roles/domain/grants.js';

const EVERY: GrantScope = { kind: 'all' };
const DAX: GrantScope = { kind: 'course', courseId: '301', courseTitle: 'Mastering <DAX>' };
const BARE: GrantScope = { kind: 'course', courseId: '302' };
const TWO: GrantScope = { kind: 'pools', poolIds: ['2003', '2001', '2003'] };
const ONE: GrantScope = { kind: 'pools', poolIds: ['2001'] };

describe('a role’s scope', () => {
  it('reads in words in the listing (escaped) and plainly in the audit trail', () => {
    const esc = (t: string) => t.replace('<', '&lt;').replace('>', '&gt;');
    expect(scopeWords(EVERY)).toBe('every pool');
    expect(scopeWords(DAX, esc)).toBe('the pools of *Mastering &lt;DAX&gt;*');
    expect(scopeWords(BARE)).toBe('the pools of course `302`');
    expect(scopeWords(TWO)).toBe('pools `2001`, `2003`');
    expect(scopeWords(ONE)).toBe('pool `2001`');
    expect(scopePlain(EVERY)).toBe('every pool');
    expect(scopePlain(DAX)).toBe('the pools of Mastering <DAX>');
    expect(scopePlain(BARE)).toBe('the pools of course 302');
    expect(scopePlain(TWO)).toBe('pools 2001, 2003');
    expect(scopePlain(ONE)).toBe('pool 2001');
    expect(roleWords('admin')).toBe('admin');
    expect(roleWords('viewer')).toBe('viewer');
  });

  it('a second give of the same role on the same pools, in any order, is the same grant', () => {
    const give = (scope: GrantScope, role: 'admin' | 'viewer' = 'admin', subject = 'U0PADMIN01') => ({
      subject,
      role,
      scope,
    });
    expect(sameGrant(give(TWO), give({ kind: 'pools', poolIds: ['2001', '2003'] }))).toBe(true);
    expect(sameGrant(give(TWO), give(ONE))).toBe(false);
    expect(sameGrant(give(TWO), give(TWO, 'viewer'))).toBe(false);
    expect(sameGrant(give(TWO), give(TWO, 'admin', 'U0OTHER001'))).toBe(false);
    expect(sameGrant(give(DAX), give(EVERY))).toBe(false);
    expect(sameGrant(give(DAX), give({ kind: 'course', courseId: '301' }))).toBe(true);
    expect(scopeKey(EVERY)).toBe('');
    expect(scopeKey(DAX)).toBe('301');
    expect(scopeKey(TWO)).toBe('2001,2003');
  });

  it('covers every pool, the pools of its course (none when the course is unknown), or its pools', () => {
    expect(covers(EVERY, '2999', undefined)).toBe(true);
    expect(covers(DAX, '2002', '301')).toBe(true);
    expect(covers(DAX, '2002', '302')).toBe(false);
    expect(covers(DAX, '2002', undefined)).toBe(false);
    expect(covers(TWO, '2003', undefined)).toBe(true);
    expect(covers(TWO, '2002', '301')).toBe(false);
  });
});

describe('an approver’s delegation', () => {
  const d = (over: Partial<Delegation>): Delegation => ({
    id: 'dl1',
    approver: 'U0APPROV01',
    delegate: 'U0DELEG001',
    fromDay: '2026-12-01',
    untilDay: '2026-12-05',
    state: 'active',
    createdAt: '2026-11-27T10:00:00Z',
    ...over,
  });
  it('is in force on its days once accepted, and shown until its last day while waiting', () => {
    expect(dayOf(new Date('2026-12-03T23:59:00Z'))).toBe('2026-12-03');
    expect(inForce(d({}), '2026-12-01')).toBe(true);
    expect(inForce(d({}), '2026-12-06')).toBe(false);
    expect(inForce(d({}), '2026-11-30')).toBe(false);
    expect(inForce(d({ state: 'waiting' }), '2026-12-02')).toBe(false);
    expect(live(d({ state: 'waiting' }), '2026-11-28')).toBe(true);
    expect(live(d({}), '2026-12-05')).toBe(true);
    expect(live(d({}), '2026-12-06')).toBe(false);
    expect(live(d({ state: 'refused' }), '2026-12-02')).toBe(false);
  });
});

describe('a leaver’s seats', () => {
  it('are due after the grace days; a sweep belongs to the Monday of its week', () => {
    expect(dueOf(new Date('2026-11-27T10:00:00Z'), 7).toISOString()).toBe('2026-12-04T10:00:00.000Z');
    expect(weekOf(new Date('2026-11-29T23:00:00Z'))).toBe('2026-11-23');
    expect(weekOf(new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30');
  });
});
