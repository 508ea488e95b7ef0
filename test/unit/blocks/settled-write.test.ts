import { describe, expect, it } from 'vitest';
import { buildSettledWriteMessage } from '../../../src/kernel/blocks/writes/settled-notice.js';
import type { SettledWriteNotice } from '../../../src/kernel/domain/writes/settled-notice.js';

const base = { kind: 'settled-write', to: 'U0ADMIN001' } as const;
const text = (n: Omit<SettledWriteNotice, 'kind' | 'to'>) => buildSettledWriteMessage({ ...base, ...n }).text;

describe('the DM about a write settled after a restart', () => {
  it('says what the revoke became, naming the student, license and pool', () => {
    expect(
      text({ write: 'revoke', result: 'done', studentName: 'Ada Lovelace', licenseId: '4003', poolId: '2003' }),
    ).toBe(
      "After a restart: the revoke of Ada Lovelace's license `4003` in pool `2003` was done: the license is revoked.",
    );
    expect(text({ write: 'revoke', result: 'not-done', studentName: 'Ada Lovelace', licenseId: '4003' })).toContain(
      'was not done: the license is still active',
    );
  });

  it('an end date: the day as people read it, and what the license ends on when it was not changed', () => {
    const change = { write: 'end-date', studentName: 'Ada', licenseId: '4002', endDate: '2027-07-28' } as const;
    const done = text({ ...change, result: 'done' });
    expect(done).toBe("After a restart: the change of Ada's license `4002` to end Jul 28, 2027 was done.");
    const not = text({ ...change, result: 'not-done', endsNow: '2027-01-01T00:00:00Z' });
    expect(not).toContain('was not done: it still ends Jan 1, 2027.');
  });

  it('an assign and the two steps of a recycle', () => {
    expect(text({ write: 'assign', result: 'done', poolId: '2001', newcomer: 'Bob', assignedLicenseId: '9001' })).toBe(
      'After a restart: the assign of a license in pool `2001` to Bob was done (license `9001`).',
    );
    expect(text({ write: 'assign', result: 'not-done', poolId: '2001', newcomer: 'bob@contoso.com' })).toContain(
      'nobody was assigned',
    );
    const half = text({ write: 'recycle', result: 'freed-only', poolId: '2001', studentName: 'Ada', newcomer: 'Bob' });
    expect(half).toContain('was done only half: the old license ended, but Bob got no license, so the seat is free');
    expect(text({ write: 'recycle', result: 'not-done', poolId: '2001', newcomer: 'Bob' })).toContain(
      'nothing changed',
    );
  });

  it('escapes names that came from the licensing service', () => {
    expect(text({ write: 'revoke', result: 'done', studentName: '<!channel>', licenseId: '1' })).not.toContain(
      '<!channel>',
    );
  });
});
