import { describe, expect, it } from 'vitest';
import { defaultRecycleCandidate, recycleCandidates, recycleProblem } from '../../../src/changes/domain/recycle.js';
import { revokeBlocker, seatReturns } from '../../../src/changes/domain/revocation.js';
import { emailDomain, isDomainAllowed, maskEmail, parseEmail } from '../../../src/kernel/domain/email.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

describe('revocation', () => {
  it('offered only for an active, running, revokable license; the seat returns to a transferable pool', () => {
    expect(revokeBlocker(makeLicense(), NOW)).toBeUndefined();
    expect(revokeBlocker(makeLicense({ revokable: false }), NOW)).toBe('not-revokable');
    expect(revokeBlocker(makeLicense({ active: false }), NOW)).toBe('inactive');
    expect(revokeBlocker(makeLicense({ end: inDays(-1) }), NOW)).toBe('expired');
    expect(seatReturns(makePool())).toBe(true);
    expect(seatReturns(makePool({ transferable: false }))).toBe(false);
    expect(seatReturns(undefined)).toBe(false);
  });
});

describe('recycle', () => {
  it("the API's own pick: the oldest active license, earliest start, ties by lowest id", () => {
    const licenses = [
      makeLicense({ id: '12', start: inDays(-50) }),
      makeLicense({ id: '9', start: inDays(-90), active: false }),
      makeLicense({ id: '11', start: inDays(-80) }),
      makeLicense({ id: '10', start: inDays(-80) }),
      makeLicense({ id: '8', start: inDays(-100), end: inDays(-1) }),
    ];
    expect(recycleCandidates(licenses, NOW).map((l) => l.id)).toEqual(['10', '11', '12']);
    expect(defaultRecycleCandidate(licenses, NOW)?.id).toBe('10');
    expect(defaultRecycleCandidate([], NOW)).toBeUndefined();
  });
});

describe('recycle rules (applied to fresh reads when a confirmation comes back)', () => {
  const full = makePool({ availableLicenses: 0, assignedLicenses: 50 });
  it('a full transferable running pool and an active revokable license of it: no problem', () => {
    expect(recycleProblem(full, makeLicense(), NOW)).toBeUndefined();
  });

  it('the pool first: ended, untransferable, or with free seats', () => {
    expect(recycleProblem({ ...full, end: inDays(-1) }, makeLicense(), NOW)).toEqual({ kind: 'pool-ended' });
    expect(recycleProblem({ ...full, transferable: false }, makeLicense(), NOW)).toEqual({
      kind: 'pool-not-transferable',
    });
    expect(recycleProblem(makePool({ availableLicenses: 2 }), makeLicense(), NOW)).toEqual({
      kind: 'pool-not-full',
      available: 2,
    });
  });

  it('then the license: of that pool, active, running and revokable', () => {
    expect(recycleProblem(full, makeLicense({ poolId: '102' }), NOW)).toEqual({
      kind: 'license-other-pool',
      licensePool: '102',
    });
    expect(recycleProblem(full, makeLicense({ active: false }), NOW)?.kind).toBe('license-inactive');
    expect(recycleProblem(full, makeLicense({ end: inDays(-1) }), NOW)?.kind).toBe('license-expired');
    expect(recycleProblem(full, makeLicense({ revokable: false }), NOW)?.kind).toBe('license-not-revokable');
  });
});

describe('email', () => {
  it('syntax, Slack mailto links, domains and masking', () => {
    expect(parseEmail(' ada@contoso.com ')).toBe('ada@contoso.com');
    expect(parseEmail('<mailto:ada@contoso.com|ada@contoso.com>')).toBe('ada@contoso.com');
    for (const bad of ['ada', 'ada@', '@contoso.com', 'a b@contoso.com', 'ada@contoso', `${'a'.repeat(250)}@x.com`]) {
      expect(parseEmail(bad)).toBeUndefined();
    }
    expect(emailDomain('Ada@Contoso.COM')).toBe('contoso.com');
    expect(isDomainAllowed('a@fabrikam.com', ['contoso.com', 'Fabrikam.com'])).toBe(true);
    expect(isDomainAllowed('a@evil.com', ['contoso.com'])).toBe(false);
    expect(maskEmail('ada.lovelace@contoso.com')).toBe('a***@contoso.com');
    expect(maskEmail('nonsense')).toBe('***');
  });
});
