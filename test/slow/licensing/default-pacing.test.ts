import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import { createLicensingClient, type LicensingClient } from '../../../src/kernel/licensing/index.js';

// The default construction path: no `limiter` given, so the client builds the bottleneck limiter from
// `rateLimit`. The limiter's own guarantees are tested beside it; this checks the wiring.
let sandbox: RunningSandbox;
let client: LicensingClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 4, windowMs: 600, algorithm: 'sliding-log' } });
  client = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: 4, windowMs: 600, marginMs: 100, reservedInteractive: 1, maxQueue: 50 },
    retry: { attempts: 3, baseDelayMs: 50, maxDelayMs: 1_000 },
    cacheTtlMs: 0,
  });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

describe('the default limiter', () => {
  it('paces 10 reads under a tiny sandbox limit with no 429', async () => {
    const ids = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.pools.get(String(2001 + (i % 7)), { priority: 'background' })),
    );
    expect(ids).toHaveLength(10);
    expect(sandbox.requests).toHaveLength(10);
    expect(sandbox.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(client.limiter.stats().configuredLimit).toBe(4);
  });
});
