import { describe, expect, it } from 'vitest';
import { emailDomain, isDomainAllowed, maskEmail, parseEmail } from '../../../src/domain/email.js';
import { defaultRecycleCandidate, recycleCandidates } from '../../../src/domain/recycle.js';
import { revokeBlocker, seatReturns } from '../../../src/domain/revocation.js';
import { inDays, makeLicense, makePool, NOW } from '../blocks/fixtures.js';

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
