import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import { callSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
const me = () => callSandbox(sandbox, 'GET', '/v1/me');
const assign = (email: string) => callSandbox(sandbox, 'POST', '/v1/pool/2001/license', { body: { email } });

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: false });
});
afterEach(() => sandbox.close());

/**
 * The sandbox closed while `pending` hangs in it: close() returns promptly, well short of the 30 s test
 * timeout (a hanging socket left open would never finish), and `pending` fails.
 */
async function closesPromptly(running: RunningSandbox, pending: Promise<unknown>): Promise<void> {
  pending.catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closing = Date.now();
  await running.close();
  expect(Date.now() - closing).toBeLessThan(5_000);
  await expect(pending).rejects.toThrow();
}

describe('injected faults', () => {
  it('answers a share of matching requests with 500, spread evenly', async () => {
    sandbox.addFault({ kind: '500', rate: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await me()).status);
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500, 200, 500, 200, 500]);
    sandbox.clearFaults();
    expect((await me()).status).toBe(200);
  });

  it('matches on method and path, hits `times` requests, and leaves data alone before the work', async () => {
    sandbox.addFault({ kind: '500', method: 'POST', path: /^\/v1\/pool\/\d+\/license$/, times: 2 });
    const available = sandbox.inspect.pool('2001')?.availableLicenses;
    expect((await me()).status).toBe(200);
    const failed = await assign('one@contoso.com');
    expect(failed.status).toBe(500);
    expect(failed.json).toMatchObject({ code: 'internal_error' });
    expect((await assign('one@contoso.com')).status).toBe(500);
    expect(sandbox.inspect.pool('2001')?.availableLicenses).toBe(available);
    expect((await assign('one@contoso.com')).status).toBe(200);
    expect(sandbox.inspect.pool('2001')?.availableLicenses).toBe((available ?? 0) - 1);
  });

  it("phase 'after' applies the write and then fails the answer", async () => {
    sandbox.addFault({ kind: '500', method: 'DELETE', phase: 'after', times: 1 });
    const answer = await callSandbox(sandbox, 'DELETE', '/v1/license/4001');
    expect(answer.status).toBe(500);
    expect(sandbox.inspect.license('4001')?.active).toBe(false);
  });

  it('sends a 200 with a body that is not JSON', async () => {
    sandbox.addFault({ kind: 'malformed-json', path: /^\/v1\/pools$/ });
    const answer = await callSandbox(sandbox, 'GET', '/v1/pools');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/json');
    expect(answer.text.length).toBeGreaterThan(0);
    expect(answer.json).toBeUndefined();
    // After the work, the cut body is the real answer's first half, and the write happened.
    sandbox.addFault({ kind: 'malformed-json', method: 'POST', phase: 'after' });
    const written = await assign('cut@contoso.com');
    expect(written.status).toBe(200);
    expect(written.json).toBeUndefined();
    expect(written.text.startsWith('{"id":')).toBe(true);
    expect(sandbox.inspect.student({ email: 'cut@contoso.com' })?.courses).toHaveLength(1);
  });

  it('resets the connection and records status 0', async () => {
    sandbox.addFault({ kind: 'reset', times: 1 });
    await expect(me()).rejects.toThrow();
    expect((await me()).status).toBe(200);
    expect(sandbox.requests.map((r) => r.status)).toEqual([0, 200]);
  });

  it('can reset after applying a write', async () => {
    sandbox.addFault({ kind: 'reset', method: 'POST', phase: 'after', times: 1 });
    await expect(assign('reset@contoso.com')).rejects.toThrow();
    expect(sandbox.inspect.student({ email: 'reset@contoso.com' })?.courses).toHaveLength(1);
  });

  it('hangs until the client gives up, and close() still finishes promptly', async () => {
    sandbox.addFault({ kind: 'hang', method: 'POST', phase: 'after' });
    const started = Date.now();
    await expect(
      callSandbox(sandbox, 'POST', '/v1/pool/2001/license', {
        body: { email: 'hang@contoso.com' },
        signal: AbortSignal.timeout(300),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(sandbox.inspect.student({ email: 'hang@contoso.com' })?.courses).toHaveLength(1);
    expect(sandbox.requests.at(-1)?.status).toBe(0);
    // One more request left hanging while the sandbox closes.
    await closesPromptly(
      sandbox,
      callSandbox(sandbox, 'POST', '/v1/pool/2001/license', { body: { email: 'h2@contoso.com' } }),
    );
  });

  it('adds latency to matching requests only', async () => {
    const LATENCY = 3000;
    sandbox.addFault({ kind: 'latency', latencyMs: LATENCY, path: /^\/v1\/me$/ });
    let started = Date.now();
    expect((await me()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LATENCY - 20);
    started = Date.now();
    expect((await callSandbox(sandbox, 'GET', '/v1/pools')).status).toBe(200);
    // Far from the injected latency, so a loaded machine cannot blur the two.
    expect(Date.now() - started).toBeLessThan(LATENCY / 2);
  });

  it('takes rules from the start options, and close() cancels pending latency', async () => {
    const slow = await startSandbox({ port: 0, faults: [{ kind: 'latency', latencyMs: 20_000 }] });
    await closesPromptly(slow, callSandbox(slow, 'GET', '/v1/me'));
  });
});
