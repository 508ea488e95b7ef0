/**
 * /licenses export on a generated account bigger than one rate window: the file that arrives is
 * complete and in export order (pool, then start), the DM shows the progress and then the end, and
 * the export reads at background priority, so a person's command sent meanwhile is answered before
 * the export is done and the export never takes the slots kept for people.
 */
import { describe, expect, it } from 'vitest';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { parseCsv } from '../support/csv.js';
import { isFinalReply } from '../support/fake-slack.js';

const WINDOW_MS = 3_000;
const LIMIT = 25;
/** Kept free of background work in every window (docs/ratelimit.md). */
const RESERVED = 5;

const t = appPerFile('export-streaming-', () =>
  startTestApp({
    sandbox: {
      seed: { scale: { pools: 12, licenses: 400, heavyStudentLicenses: 8 } },
      rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    },
    // Small pages, so the export needs about 60 requests: more than two windows.
    licensing: { pageSize: 10 },
  }),
);

const textOf = (args: Record<string, unknown>) => String(args.text ?? '');

describe('/licenses export of an account bigger than a rate window', () => {
  it('streams every license in order, shows progress in the DM, and leaves people their slots', async () => {
    t.sandbox.clearRequests();
    const exporting = await t.command('export', { userId: TEST_USERS.viewer });
    expect(exporting.status).toBe(200);
    // The first progress message is in the DM before a person asks for something.
    await t.slack.waitForCall('chat.postMessage', (c) => textOf(c.args).includes('Exporting every license'));
    const show = await t.command('show 1000001', { userId: TEST_USERS.viewer });
    const shown = await show.waitForResponse(isFinalReply, 20_000);
    expect(String(shown.body.text)).toContain('1000001');
    const exportedWhenShown = t.slack.uploads.length;
    const done = await exporting.waitForResponse(isFinalReply, 60_000);
    expect(String(done.body.text)).toContain('Sent: 400 licenses');
    // The person was answered while the export was still reading.
    expect(exportedWhenShown).toBe(0);

    const file = t.slack.uploads.at(-1);
    const rows = parseCsv(file?.content ?? '').slice(1);
    const all = t.sandbox.inspect.licenses({ includeInactive: true });
    expect(rows).toHaveLength(all.length);
    expect(new Set(rows.map((r) => r[4]))).toEqual(new Set(all.map((l) => l.id)));
    const key = (r: string[]) => [Number(r[3]), r[5] ?? ''] as const;
    for (let i = 1; i < rows.length; i += 1) {
      const [pa, sa] = key(rows[i - 1] as string[]);
      const [pb, sb] = key(rows[i] as string[]);
      expect(pa < pb || (pa === pb && sa <= sb), `row ${i} after row ${i - 1}`).toBe(true);
    }

    // Progress: "page N of M" while reading, then the end, in one DM message.
    const updates = t.slack.calls.filter((c) => c.method === 'chat.update').map((c) => textOf(c.args));
    expect(updates.some((u) => /page \d+ of about \d+/.test(u))).toBe(true);
    expect(updates.at(-1)).toContain('done: 400 rows');

    // Background priority: in any window the export took at most the slots background work may use.
    // (The show command read /v1/license/{id} and /v1/pool/{id}; the export reads only these lists.)
    const exportTimes = t.sandbox.requests
      .filter((r) => /^\/v1\/(pools$|students\?|licenses\?)/.test(r.url))
      .map((r) => r.at);
    for (const start of exportTimes) {
      const inWindow = exportTimes.filter((at) => at >= start && at < start + WINDOW_MS).length;
      expect(inWindow).toBeLessThanOrEqual(LIMIT - RESERVED);
    }
  });
});
