/**
 * npx tsx bench/audit.ts — figures for the audit trail and the log masking, printed, not asserted:
 *  1. e-mail masking is linear in the length of a log line: the time per MB for lines of 0.5 to
 *     4 MB (target: about the same for every size), and the time for a 40,000-character run of letters with no
 *     address (the shape that made a backtracking regular expression quadratic) against a 10,000
 *     one (target ≈ 4, not 16);
 *  2. the audit channel under a burst: 30 refusals by one person and 10 changes recorded at once,
 *     through the real queue with the pace scaled down (20 ms for Slack's 1 s): posts made (target
 *     11: ten changes and one folded burst), and the smallest gap between two posts' starts over the
 *     pace (target ≥ 1.0).
 */
import { maskEmailsIn } from '../src/kernel/domain/email.js';
import type { AuditEntry } from '../src/kernel/services/audit.js';
import { createAuditLog } from '../src/kernel/services/audit.js';

function timeOf(run: () => void, repeat = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

function lineOf(bytes: number): string {
  const chunk = JSON.stringify({
    message: 'audit',
    detail: 'The licensing service refused this: josé.núñez@exämple.com already has an active license.',
    other: 'Zoë.Ünal@xn--exmple-cua.com, "ada lovelace"@contoso.com, o\'brien@fabrikam.com, v1.2@latest',
    blob: 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(4),
  });
  return chunk.repeat(Math.ceil(bytes / chunk.length)).slice(0, bytes);
}

console.log('1. masking');
const perMb: number[] = [];
for (const mb of [0.5, 1, 2, 4]) {
  const line = lineOf(mb * (1 << 20));
  const ms = timeOf(() => maskEmailsIn(line));
  perMb.push(ms / mb);
  console.log(`   ${mb} MB line: ${ms.toFixed(1)} ms (${(ms / mb).toFixed(1)} ms per MB)`);
}
console.log(
  `   per-MB time, largest over smallest line: ${((perMb.at(-1) ?? 0) / (perMb[0] ?? 1)).toFixed(2)} (linear: 1)`,
);
const r10 = timeOf(() => maskEmailsIn('a'.repeat(10_000)));
const r40 = timeOf(() => maskEmailsIn('a'.repeat(40_000)));
console.log(
  `   run of letters 10k ${r10.toFixed(2)} ms, 40k ${r40.toFixed(2)} ms: ratio ${(r40 / r10).toFixed(2)} (linear: 4, quadratic: 16)`,
);

const PACE = 20;
const starts: number[] = [];
const logger = { debug() {}, info() {}, warn() {}, error() {} };
const audit = createAuditLog({
  logger,
  channel: 'C0BENCH',
  post: async () => {
    starts.push(Date.now()); // the queue's own clock (whole milliseconds)
    await new Promise((resolve) => setTimeout(resolve, 2));
  },
  posting: { paceMs: PACE, foldQuietMs: 5 * PACE, foldMaxMs: 60 * PACE },
});
const at = new Date().toISOString();
const records: Promise<void>[] = [];
for (let i = 0; i < 30; i += 1) {
  const refused: AuditEntry = { at, actor: 'U0VIEW0001', action: 'extend', outcome: 'refused', licenseId: '4001' };
  records.push(audit.record(refused));
}
for (let i = 0; i < 10; i += 1) {
  records.push(audit.record({ at, actor: 'U0MGR00001', action: 'revoke', outcome: 'done', licenseId: `${4100 + i}` }));
}
const recordStarted = performance.now();
await Promise.all(records);
const recordMs = performance.now() - recordStarted;
await new Promise((resolve) => setTimeout(resolve, 6 * PACE));
const result = await audit.close(60 * PACE);
const gaps = starts.slice(1).map((s, i) => s - (starts[i] ?? 0));
console.log('2. audit channel, 30 refusals by one person + 10 changes at once (pace scaled to 20 ms)');
console.log(`   recorded (log line and file) in ${recordMs.toFixed(1)} ms, without waiting for a post`);
console.log(`   posts: ${starts.length} (target 11); unsent at close: ${result.unsent}`);
console.log(`   smallest gap between posts / pace: ${(Math.min(...gaps) / PACE).toFixed(2)} (target ≥ 1.0)`);
