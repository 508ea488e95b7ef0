/**
 * One 429 from the licensing API, end to end: the command that drew it is answered after a short pause
 * and a probe, the next command goes straight through, and the limit stays where it was. The window is
 * 40 s here, so a policy that paused a whole window (as before) would not answer within this test.
 */
import { describe, expect, it } from 'vitest';
import { type RespondedRequest, startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';

const final = async (r: RespondedRequest) => allText((await r.waitForResponse(isFinalReply, 20_000)).body);

describe('one 429 from the licensing API', () => {
  const t = appPerFile('one-429-', () =>
    startTestApp({
      sandbox: { rateLimit: { limit: 25, windowMs: 40_000 } },
      licensing: { rateLimit: { limit: 25, windowMs: 40_000, marginMs: 100 }, cacheTtlMs: 0 },
    }),
  );

  it('costs the command a short pause, not a window, and nobody else anything', async () => {
    t.sandbox.addFault({ kind: '429', method: 'GET', times: 1 });
    const first = await final(await t.command('pools'));
    expect(first).toMatch(/pools/i);
    expect(first).not.toMatch(/busy/);
    const second = await final(await t.command('courses'));
    expect(second).toMatch(/courses/i);

    expect(t.sandbox.requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(t.licensing.limiter.stats()).toMatchObject({ currentLimit: 25, configuredLimit: 25 });
    const decisions = t.logs.filter((l) => /rate limiter: .*429/.test(String(l.message)));
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ level: 'info', inARow: 1, pauseMs: 2_000, limit: 25 });
  });
});
