/**
 * Each licensing failure, end to end: one sentence with the next step, never silence, never a trace;
 * and the acknowledgement always comes before any licensing call, however slow the API is.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RespondedRequest, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';

const final = async (r: RespondedRequest) => allText((await r.waitForResponse(isFinalReply, 20_000)).body);
const NO_TRACE = /at .*\.(ts|js):\d|Error:|\/v1\//;

describe('licensing errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(() => {
    t.sandbox.clearFaults();
    t.sandbox.setRateLimit({ limit: 25, windowMs: 3000 });
    t.licensing.invalidateCache();
  });
  afterAll(() => t.close());

  it.each([
    ['500', { kind: '500' as const }, /not answering; nothing was changed/],
    ['a connection reset', { kind: 'reset' as const }, /not answering; nothing was changed/],
    ['malformed JSON', { kind: 'malformed-json' as const }, /answered something unexpected/],
  ])('%s becomes one sentence with the next step', async (_name, fault, sentence) => {
    t.sandbox.addFault(fault);
    const text = await final(await t.command('list'));
    expect(text).toMatch(sentence);
    expect(text).not.toMatch(NO_TRACE);
  });

  it('acknowledges before any licensing call, even when the API takes seconds', async () => {
    const LATENCY = 2000;
    t.sandbox.addFault({ kind: 'latency', latencyMs: LATENCY });
    t.sandbox.clearRequests();
    const sent = Date.now();
    const r = await t.command('students', { userId: TEST_USERS.viewer });
    const ackedAt = Date.now();
    expect(r.status).toBe(200);
    expect(r.ackMs).toBeLessThan(LATENCY / 2);
    const working = await r.waitForResponse();
    expect(String(working.body.text)).toContain('Working on it');
    expect(await final(r)).toContain('Students');
    const first = t.sandbox.requests[0];
    expect(first?.url).toMatch(/^\/v1\/students/);
    // Causal, not a race of clocks: "Working on it" was posted before the licensing request arrived,
    // and the HTTP ack was back long before that request's answer (LATENCY after its arrival) could be.
    expect(working.at).toBeLessThanOrEqual(first?.at ?? 0);
    expect(ackedAt).toBeLessThan((first?.at ?? 0) + LATENCY / 2);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(LATENCY);
  });
});

describe('a busy licensing service (429)', () => {
  // Its own app: the 429 pauses this client's limiter and lowers the sandbox's limit.
  const t = appPerFile('commands-errors-', () => startTestApp());

  it('says when to try again', async () => {
    t.sandbox.setRateLimit({ limit: 1, windowMs: 60_000 });
    await final(await t.command('me'));
    const text = await final(await t.command('courses'));
    expect(text).toMatch(/busy; please try again in about \d+ s/);
  });
});

describe('while the rate limiter holds requests for seconds', () => {
  const t = appPerFile('commands-errors-', () =>
    startTestApp({ licensing: { rateLimit: { limit: 2, windowMs: 3000, marginMs: 50 } } }),
  );

  it('acks every command at once and answers each when its turn comes', async () => {
    const requests = await Promise.all(
      [1, 2, 3, 4, 5].map((page) => t.command(`students ${page}`, { userId: TEST_USERS.viewer })),
    );
    for (const r of requests) expect(r.ackMs).toBeLessThan(1000);
    const texts = await Promise.all(requests.map(final));
    for (const [i, text] of texts.entries()) expect(text).toContain(`Page ${i + 1}`);
  }, 30_000);
});

describe('a token the licensing service no longer accepts (401)', () => {
  const t = appPerFile('commands-errors-', () => startTestApp({ licensing: { token: 'revoked-token-0000' } }));

  it('tells the user to generate a new token and update LICENSING_API_TOKEN', async () => {
    const text = await final(await t.command('pools'));
    expect(text).toMatch(/token is no longer valid: generate a new one in the license web interface/);
    expect(text).toContain('LICENSING_API_TOKEN');
    expect(text).not.toContain('revoked-token-0000');
  });
});
