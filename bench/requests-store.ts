/**
 * npx tsx bench/requests-store.ts — what 20,000 decided course requests cost DATA_DIR/requests.json,
 * printed, not asserted: the file's size and the time of one write (a pending request updated, as a
 * reminder or a decision does; every write rewrites the whole file atomically) before and after the
 * periodic check prunes the decided ones it no longer needs (KEEP_DECIDED in src/domain/requests.ts:
 * 30 days, the newest 1,000). The decided requests are spread over the last 200 days.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CourseRequest } from '../src/domain/requests.js';
import { createFileRequestStore } from '../src/services/requests/store.js';

const DECIDED = 20_000;
const WRITES = 20;
const DAY = 86_400_000;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const now = new Date();

function request(i: number, status: CourseRequest['status'], ageMs: number): CourseRequest {
  const at = new Date(now.getTime() - ageMs).toISOString();
  return {
    id: `r${i.toString(16).padStart(12, '0')}`,
    requester: `U0MEMBER${String(i % 900).padStart(3, '0')}`,
    requesterEmail: `member.${i % 900}@contoso.com`,
    poolId: String(2001 + (i % 7)),
    courseTitle: 'Mastering DAX',
    reason: 'Quarterly reporting for the finance team, and the new dashboards we owe the board.',
    createdAt: at,
    status,
    source: 'command',
    cards: [
      { channel: 'D0ADMIN001', ts: '1767225600.000100' },
      { channel: 'D0ADMIN002', ts: '1767225600.000200' },
    ],
    ...(status === 'pending' ? {} : { decidedBy: 'U0MGR00001', decidedAt: at, denyReason: 'Budget is frozen' }),
  };
}

async function timeWrites(store: ReturnType<typeof createFileRequestStore>, id: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WRITES; i++) {
    const started = performance.now();
    await store.update(id, (r) => {
      r.remindedAt = new Date(now.getTime() + i).toISOString();
    });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const median = (xs: number[]) => xs[Math.floor(xs.length / 2)] ?? 0;
const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(1)} ms, best ${(xs[0] ?? 0).toFixed(1)} ms, worst ${(xs.at(-1) ?? 0).toFixed(1)} ms`;

const dir = await mkdtemp(join(tmpdir(), 'bench-requests-'));
try {
  const requests: Record<string, CourseRequest> = {};
  for (let i = 0; i < DECIDED; i++) {
    const r = request(i, i % 3 === 0 ? 'denied' : 'cancelled', Math.floor((i / DECIDED) * 200 * DAY));
    requests[r.id] = r;
  }
  const pending = request(DECIDED, 'pending', 60_000);
  requests[pending.id] = pending;
  const path = join(dir, 'requests.json');
  await writeFile(path, `${JSON.stringify({ version: 1, requests }, null, 1)}\n`);
  const store = createFileRequestStore(dir, silent);
  await store.get(pending.id);

  const before = await timeWrites(store, pending.id);
  const sizeBefore = (await stat(path)).size;
  const started = performance.now();
  const pruned = (await store.prune?.(now)) ?? 0;
  const pruneMs = performance.now() - started;
  const after = await timeWrites(store, pending.id);
  const sizeAfter = (await stat(path)).size;
  const left = Object.keys(requests).length - pruned;

  console.log(`decided requests: ${DECIDED} over 200 days, plus one pending`);
  console.log(`before pruning: ${(sizeBefore / 1e6).toFixed(1)} MB; one write: ${fmt(before)}`);
  console.log(`prune: ${pruned} dropped in ${pruneMs.toFixed(0)} ms, ${left} left`);
  console.log(`after pruning:  ${(sizeAfter / 1e6).toFixed(2)} MB; one write: ${fmt(after)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
