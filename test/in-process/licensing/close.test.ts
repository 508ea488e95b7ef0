/**
 * Closing the client while requests wait or run (a stop, docs/shutdown.md): the callers learn that
 * License Desk stopped (StoppedError), a queued request is never sent, a write that was cut off says
 * its outcome is unknown, and nothing is sent after close.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import { createLicensingClient, StoppedError } from '../../../src/kernel/licensing/index.js';
import type { LicensingClient } from '../../../src/kernel/licensing/types.js';
import { caught } from '../../support/licensing-harness.js';
import { until } from '../../support/until.js';

let sandbox: RunningSandbox;
let client: LicensingClient;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false });
  // One request per minute: whatever comes after the first waits in the limiter's queue.
  client = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: 1, windowMs: 60_000, marginMs: 0, reservedInteractive: 0 },
    timeouts: { connectMs: 1_000, headersMs: 20_000, bodyMs: 20_000 },
    cacheTtlMs: 0,
  });
});

afterEach(async () => {
  await client.close({ abort: true });
  await sandbox.close();
});

describe('close({ abort: true }) with a write in flight and a read queued', () => {
  it('the write is cut off with its outcome unknown, the read was never sent, later calls send nothing', async () => {
    sandbox.addFault({ kind: 'hang', method: 'PATCH' });
    const write = caught(client.licenses.changeEndDate('4002', '2099-01-01'));
    await until('the PATCH to reach the sandbox', () => sandbox.requests.some((r) => r.method === 'PATCH'));
    const read = caught(client.licenses.get('4001'));

    await client.close({ abort: true });

    const [cut, dropped] = await Promise.all([write, read]);
    expect(cut).toBeInstanceOf(StoppedError);
    expect(cut).toMatchObject({ kind: 'stopped', outcomeUnknown: true, endpoint: 'PATCH /v1/license/{id}' });
    expect(dropped).toBeInstanceOf(StoppedError);
    expect(dropped).toMatchObject({ kind: 'stopped', outcomeUnknown: false });
    const later = await caught(client.me());
    expect(later).toBeInstanceOf(StoppedError);
    expect(sandbox.requests.map((r) => r.method)).toEqual(['PATCH']);
    // Never the token, in any of them.
    for (const e of [cut, dropped, later]) expect(String((e as Error).message)).not.toContain(sandbox.adminToken);
  });
});
