/**
 * Odd data from the licensing service: a pool reporting -3 free seats, more assigned than it has, no
 * course title, an end before its start, a license without a student name. Every view still renders,
 * clamps what it must, flags the oddity in the row, and the log says it once per pool. The service is
 * the sandbox behind a small rewriting proxy (the sandbox itself derives its counts, so it cannot lie).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';

type Json = Record<string, unknown>;

/** What the service says about pools 2003 (full, 8 seats), 2004, 2005 and 2007, and one license of 2001. */
function oddly(path: string, body: unknown): unknown {
  const pool = (p: Json) => {
    if (p.id === '2003') p.availableLicenses = -3;
    if (p.id === '2004') p.assignedLicenses = 15;
    if (p.id === '2005') (p.course as Json).title = null;
    if (p.id === '2007') p.start = '2999-01-01T00:00:00+00:00';
    return p;
  };
  if (path === '/v1/pools' && Array.isArray(body)) return body.map(pool);
  if (path.startsWith('/v1/pool/2001/licenses') && Array.isArray(body) && body[0]) {
    delete (body[0] as { student: Json }).student.name;
  }
  return body;
}

async function startRewritingProxy(sandbox: RunningSandbox): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
      const upstream = await fetch(`${sandbox.url}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      let text = await upstream.text();
      if (upstream.ok && upstream.headers.get('content-type')?.includes('json')) {
        text = JSON.stringify(oddly(new URL(req.url ?? '/', sandbox.url).pathname, JSON.parse(text)));
      }
      const out: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' };
      const marker = upstream.headers.get('x-licensing-sandbox');
      if (marker) out['x-licensing-sandbox'] = marker;
      res.writeHead(upstream.status, out).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('odd data from the licensing service', () => {
  let t: TestApp;
  let sandbox: RunningSandbox;
  let proxy: { url: string; server: Server };
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: { limit: 25, windowMs: 3000 } });
    proxy = await startRewritingProxy(sandbox);
    t = await startTestApp({ useSandbox: sandbox, licensing: { baseUrl: proxy.url } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => proxy.server.close(resolve));
    await sandbox.close();
  });

  async function run(text: string) {
    const r = await t.command(text, { userId: TEST_USERS.viewer });
    const post = await r.waitForResponse(isFinalReply);
    return { text: allText(post.body), ids: buttons(post.body).map((b) => b.action_id) };
  }

  it('/licenses pools shows every pool, the odd ones clamped and flagged, and logs each odd pool once', async () => {
    const first = await run('pools');
    expect(first.ids.filter((id) => id === ActionId.poolLicenses)).toHaveLength(7);
    expect(first.text).toContain(':warning: the service reports -3 free seats');
    expect(first.text).toContain('*0* of 8 available');
    expect(first.text).not.toContain('*-3*');
    expect(first.text).toContain(':warning: the service reports 15 assigned of 12 seats');
    expect(first.text).toContain('*Course 304*  ·  pool `2005`');
    expect(first.text).toContain(':warning: the service sent no course title');
    expect(first.text).toContain(':warning: the service reports an end before the start');
    expect(first.text).not.toContain('went wrong');

    // Read again from the service (not the cache): the same pools are not logged a second time.
    t.licensing.invalidateCache();
    expect((await run('pools')).text).toContain('-3 free seats');
    const odd = t.logs.filter((l) => String(l.msg ?? l.message).includes('odd pool'));
    expect(odd.map((l) => l.pool).sort()).toEqual(['2003', '2004', '2005', '2007']);
  });

  it('a license without a student name is listed, and says the name is missing', async () => {
    const { text } = await run('pool 2001');
    expect(text).toContain('no name from the service');
    expect(text).not.toContain('went wrong');
  });
});
