/**
 * npm run bench:mcp (npx tsx bench/mcp-read.ts [licenses] [calls]) — the Slackbot read tools' answer
 * time at scale while the licensing budget is saturated, printed, not asserted (docs/performance.md,
 * docs/slackbot.md; goal: p99 under 1 s):
 *   - the real app (test/support/app-harness.ts: HTTP on 127.0.0.1, the licensing sandbox at 25
 *     requests per 3 s, the fake Slack) with POST /mcp on; 50,000 licenses in its progress records
 *     (written straight into the table) over the sandbox's pools, 30 days of seats per day;
 *   - a background stream of paced licensing reads kept queued in the limiter the whole time (the
 *     budget is always spent);
 *   - CALLS tool calls through the official SDK client, each signed as Slack signs it, in turn:
 *     who stalled in a pool, a person by name, one pool with its counts and forecast. p50 and p99 of
 *     the whole call as the client sees it, and the limiter's state meanwhile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TEST_USERS } from '../test/support/app-harness.js';
import { mcpAs } from '../test/support/mcp.js';

const LICENSES = Number(process.argv[2] ?? 50_000);
const CALLS = Number(process.argv[3] ?? 300);
const FLOOD = 30;
const DAY = 86_400_000;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-mcp-'));
  const t = await startTestApp({ dataDir: dir, slackbot: { on: true } });
  const records = t.records;
  if (!records) throw new Error('no records');
  const now = new Date();
  const pools = await t.licensing.pools.list();
  const rows = Array.from({ length: LICENSES }, (_, i) => {
    const pool = pools[i % pools.length];
    if (!pool) throw new Error('no pool');
    const start = new Date(now.getTime() - (1 + (i % 300)) * DAY).toISOString();
    return {
      license_id: `B${i}`,
      pool_id: pool.id,
      course_id: pool.course.id,
      student_id: String(100_000 + i),
      student_email: `student${i}@school.example`,
      student_name: `Student ${i}`,
      progress: i % 7 === 0 ? 0 : i % 100,
      completed: i % 10 === 0 ? start : null,
      license_start: start,
      license_end: pool.end,
      active: 1,
      first_seen_at: start,
      changed_at: new Date(now.getTime() - (i % 90) * DAY).toISOString(),
      seen_at: now.toISOString(),
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    await records.db
      .insertInto('license_progress')
      .values(rows.slice(i, i + 500))
      .execute();
  }
  const usage = pools.flatMap((p) =>
    Array.from({ length: 31 }, (_, d) => ({
      pool_id: p.id,
      day: new Date(now.getTime() - d * DAY).toISOString().slice(0, 10),
      licenses: p.licenses,
      assigned: Math.max(0, p.assignedLicenses - d),
      available: p.licenses - Math.max(0, p.assignedLicenses - d),
      transferable: p.transferable ? 1 : 0,
      pool_end: p.end,
    })),
  );
  await records.db.insertInto('pool_usage').values(usage).execute();

  // The budget spent all along: FLOOD background reads always waiting in the limiter.
  let flooding = true;
  let floodDone = 0;
  const flood = Array.from({ length: FLOOD }, async () => {
    while (flooding) {
      await t.licensing.licenses.list({ page: 1, pageSize: 10 }, { priority: 'background' }).catch(() => undefined);
      floodDone++;
    }
  });
  const client = await mcpAs(t, TEST_USERS.viewer);
  const poolId = pools[0]?.id ?? '2001';
  const asks: [string, Record<string, unknown>][] = [
    ['list_holders_by_progress', { standing: 'stalled', poolId }],
    ['find_licenses', { name: 'Student 4242' }],
    ['get_pool', { poolId }],
  ];
  await client.call('list_pools');
  const times: number[] = [];
  let peakQueued = 0;
  const sentBefore = t.sandbox.requests.length;
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const [name, args] = asks[i % asks.length] as [string, Record<string, unknown>];
    const at = performance.now();
    const r = await client.call(name, args);
    times.push(performance.now() - at);
    if (r.isError) throw new Error(`${name} refused: ${JSON.stringify(r.content)}`);
    peakQueued = Math.max(peakQueued, t.licensing.limiter.stats().queued);
  }
  const wallS = (performance.now() - started) / 1000;
  const stats = t.licensing.limiter.stats();
  flooding = false;
  await client.close();
  await t.close();
  await Promise.all(flood);
  await rm(dir, { recursive: true, force: true });
  const sorted = [...times].sort((a, b) => a - b);
  const sent = t.sandbox.requests.length - sentBefore;
  process.stdout.write(
    [
      `Slackbot read tools: ${CALLS} calls over ${LICENSES.toLocaleString('en-US')} licenses in the records, budget saturated`,
      `  p50 ${pct(sorted, 0.5).toFixed(1)} ms, p99 ${pct(sorted, 0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (goal: p99 under 1000 ms)`,
      `  budget: ${stats.configuredLimit} per ${(stats.windowMs ?? 0) / 1000} s; background reads queued at the end ${stats.queued}, peak ${peakQueued}; ${floodDone} background reads done`,
      `  licensing requests sent during the calls: ${sent} in ${wallS.toFixed(1)} s (the background stream's and the tools' own)`,
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
