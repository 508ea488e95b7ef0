import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  InvalidResponseError,
  ServerError,
  TimeoutError,
} from '../../../src/kernel/licensing/index.js';
import { caught, type Harness, startHarness } from '../../support/licensing-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({}, { cacheTtlMs: 0, timeouts: { connectMs: 300, headersMs: 300, bodyMs: 300 } });
});
afterEach(() => {
  h.sandbox.clearFaults();
  h.sandbox.clearRequests();
});
afterAll(async () => {
  await h.close();
});

const posts = () => h.sandbox.requests.filter((r) => r.method === 'POST');

describe('writes after an unclear failure: outcome unknown, never resent', () => {
  it.each([
    ['500', ServerError],
    ['reset', ConnectionError],
    ['hang', TimeoutError],
    ['malformed-json', InvalidResponseError],
  ] as const)('assign, then %s after the work', async (kind, errorClass) => {
    const email = `after.${kind}@contoso.com`;
    const before = h.sandbox.inspect.pool('2001')?.availableLicenses ?? 0;
    h.sandbox.addFault({ kind, method: 'POST', path: /^\/v1\/pool\/2001\/license$/, phase: 'after' });
    const error = await caught(h.client.pools.assign('2001', { email }));
    expect(error).toBeInstanceOf(errorClass);
    expect((error as ServerError).outcomeUnknown).toBe(true);
    expect(posts()).toHaveLength(1);
    // The seat WAS taken: reading back is how the caller learns it.
    expect(h.sandbox.inspect.pool('2001')?.availableLicenses).toBe(before - 1);
    expect(h.sandbox.inspect.student({ email })?.courses.some((c) => c.licenseActive)).toBe(true);
  });

  it('a failure before the work is also never resent, and nothing changed', async () => {
    const before = h.sandbox.inspect.pool('2001')?.availableLicenses;
    h.sandbox.addFault({ kind: '500', method: 'POST', phase: 'before' });
    const error = await caught(h.client.pools.assign('2001', { email: 'before.500@contoso.com' }));
    expect((error as ServerError).outcomeUnknown).toBe(true);
    expect(posts()).toHaveLength(1);
    expect(h.sandbox.inspect.pool('2001')?.availableLicenses).toBe(before);
  });

  it('revoke and change end date are not resent either', async () => {
    const [first, second] = h.sandbox.inspect.licenses({ poolId: '2004' });
    if (!first || !second) throw new Error('demo data changed');
    h.sandbox.addFault({ kind: 'reset', method: 'DELETE', phase: 'after' });
    const revokeError = await caught(h.client.licenses.revoke(first.id));
    expect((revokeError as ConnectionError).outcomeUnknown).toBe(true);
    expect(h.sandbox.inspect.license(first.id)?.active).toBe(false);
    h.sandbox.addFault({ kind: '500', method: 'PATCH', phase: 'after' });
    const patchError = await caught(h.client.licenses.changeEndDate(second.id, second.end.slice(0, 10)));
    expect((patchError as ServerError).outcomeUnknown).toBe(true);
    expect(h.sandbox.requests.filter((r) => r.method !== 'GET')).toHaveLength(2);
  });

  it('a recycle assign is sent exactly once, even when its answer is lost', async () => {
    const pool = h.sandbox.inspect.pool('2003');
    expect(pool?.availableLicenses).toBe(0);
    const inactive = () =>
      h.sandbox.inspect.licenses({ poolId: '2003', includeInactive: true }).filter((l) => !l.active);
    const activeBefore = h.sandbox.inspect.licenses({ poolId: '2003' }).length;
    const inactiveBefore = inactive().length;
    h.sandbox.addFault({ kind: 'reset', method: 'POST', phase: 'after' });
    const error = await caught(h.client.pools.assign('2003', { email: 'recycled.once@contoso.com', recycle: true }));
    expect((error as ConnectionError).outcomeUnknown).toBe(true);
    expect(posts()).toHaveLength(1);
    // One old license was revoked to make room, not two.
    expect(h.sandbox.inspect.licenses({ poolId: '2003' })).toHaveLength(activeBefore);
    expect(inactive()).toHaveLength(inactiveBefore + 1);
  });
});
