import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import { callSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    rateLimit: false,
    adminToken: 'admin-secret',
    readOnlyToken: 'reader-secret',
  });
});
afterAll(() => sandbox.close());

describe('bearer tokens', () => {
  it('answers 401 with a JSON body without a token or with an unknown one', async () => {
    for (const token of [null, 'wrong', '']) {
      const answer = await callSandbox(sandbox, 'GET', '/v1/pools', { token });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ code: 'unauthorized', message: expect.any(String) });
      expect(answer.text).not.toContain('admin-secret');
    }
    const basic = await fetch(`${sandbox.url}/v1/pools`, { headers: { authorization: 'Basic admin-secret' } });
    expect(basic.status).toBe(401);
    await basic.text();
  });

  it('lets the read-only token read and answers 403 to its every write, changing nothing', async () => {
    const token = sandbox.readOnlyToken;
    expect((await callSandbox(sandbox, 'GET', '/v1/pools', { token })).status).toBe(200);
    expect((await callSandbox(sandbox, 'GET', '/v1/student?id=3001', { token })).status).toBe(200);
    const before = sandbox.inspect.licenses({ includeInactive: true });
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/pool/2001/license', { email: 'x@contoso.com' }],
      ['PATCH', '/v1/license/4001', { endDate: '2099-01-01' }],
      ['DELETE', '/v1/license/4001', undefined],
    ];
    for (const [method, path, body] of writes) {
      const answer = await callSandbox(sandbox, method, path, { token, body });
      expect(answer.status, method).toBe(403);
      expect(answer.json).toMatchObject({ code: 'forbidden' });
    }
    expect(sandbox.inspect.licenses({ includeInactive: true })).toEqual(before);
    expect((await callSandbox(sandbox, 'DELETE', '/v1/license/4001')).status).toBe(200);
  });

  it('records every request with the kind of token, never the token', async () => {
    sandbox.clearRequests();
    await callSandbox(sandbox, 'GET', '/v1/me?x=1');
    await callSandbox(sandbox, 'GET', '/v1/me', { token: sandbox.readOnlyToken });
    await callSandbox(sandbox, 'GET', '/v1/me', { token: 'nope' });
    await callSandbox(sandbox, 'GET', '/v1/me', { token: null });
    expect(sandbox.requests.map((r) => [r.method, r.url, r.status, r.tokenKind])).toEqual([
      ['GET', '/v1/me?x=1', 200, 'admin'],
      ['GET', '/v1/me', 200, 'readonly'],
      ['GET', '/v1/me', 401, 'unknown'],
      ['GET', '/v1/me', 401, 'none'],
    ]);
    expect(JSON.stringify(sandbox.requests)).not.toContain('secret');
    expect(sandbox.requests.every((r) => Math.abs(r.at - Date.now()) < 10_000)).toBe(true);
  });

  it('generates distinct random tokens when none are given', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      expect(other.adminToken).not.toBe(other.readOnlyToken);
      expect(other.adminToken.length).toBeGreaterThan(20);
      expect((await callSandbox(other, 'GET', '/v1/me', { token: sandbox.adminToken })).status).toBe(401);
      expect((await callSandbox(other, 'GET', '/v1/me')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
