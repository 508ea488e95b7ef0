/**
 * npm run bench:bulk-check — the licensing requests a bulk check (dryRunBulk) makes, printed, not
 * asserted. Generated sandbox data: 1,000 pools and 10,000 active licenses (10 a pool, 3,000 students);
 * the checked course has 1, 10 or 100 pools; the lists have 10, 50, 200 and 500 lines (half of the
 * addresses already enrolled). Figures: requests of the enrolment read (the way chosen, and its ratio to
 * what walking every pool of the course costs, the way every check went before), and of the whole check.
 * Only requests are counted: the sandbox is not rate-limited here, so a run takes seconds, and at the
 * API's 25 requests a minute each request is 2.4 s of a person's wait.
 */

import { startSandbox } from '../local/sandbox/index.js';
import type { SandboxData } from '../local/sandbox/types.js';
import { dryRunBulk } from '../src/bulk/services/bulk.js';
import { createLicensingClient } from '../src/kernel/licensing/index.js';

const DAY = 86_400_000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace(/\.\d+Z$/, '+00:00');
const POOLS_PER_COURSE = [1, 10, 100];

function data(): SandboxData {
  // Course 1 has 1 pool, course 2 has 10, course 3 has 100; the other 889 pools are one course each.
  const courseOf = (i: number) => (i < 1 ? 1 : i < 11 ? 2 : i < 111 ? 3 : 100 + i);
  const pools = Array.from({ length: 1000 }, (_, i) => ({
    id: String(10_000 + i),
    course: { id: String(courseOf(i)), title: `Course ${courseOf(i)}` },
    start: iso(-30),
    end: iso(300),
    transferable: true,
    licenses: 1000,
  }));
  const courses = [...new Map(pools.map((p) => [p.course.id, p.course])).values()];
  const students = Array.from({ length: 3000 }, (_, i) => ({
    id: String(50_000 + i),
    name: `S${i}`,
    email: `s${i}@contoso.com`,
  }));
  // 10 licenses a pool; a pool's licenses go to students (pool * 10 + k) mod 3000, so no student holds a course twice.
  const licenses = pools.flatMap((p, i) =>
    Array.from({ length: 10 }, (_, k) => ({
      id: String(100_000 + i * 10 + k),
      poolId: p.id,
      studentId: String(50_000 + ((i * 10 + k) % 3000)),
      start: iso(-10),
      end: iso(200),
      active: true,
    })),
  );
  const me = { id: '1', name: 'Bench', email: 'b@contoso.com', allowedDomainsForTransferableLicenses: ['contoso.com'] };
  return { me, courses, pools, students, licenses, progress: [] };
}

async function main(): Promise<void> {
  const seed = data();
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed, rateLimit: false });
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const licensing = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: 100_000, windowMs: 1000 },
    logger: silent,
  });
  const firstPool = { 1: '10000', 10: '10001', 100: '10011' } as Record<number, string>;
  const rows: string[] = [];
  for (const perCourse of POOLS_PER_COURSE) {
    const poolId = firstPool[perCourse] ?? '';
    const courseId = seed.pools.find((p) => p.id === poolId)?.course.id;
    const enrolledIds = seed.licenses
      .filter((l) => seed.pools.find((p) => p.id === l.poolId)?.course.id === courseId)
      .map((l) => Number(l.studentId) - 50_000);
    const walkAllPools = perCourse; // 10 licenses a pool: one page each
    for (const lines of [10, 50, 200, 500]) {
      const emails = Array.from({ length: lines }, (_, i) =>
        i % 2 === 0 && enrolledIds[i / 2] !== undefined ? `s${enrolledIds[i / 2]}@contoso.com` : `new${i}@contoso.com`,
      );
      licensing.invalidateCache();
      sandbox.clearRequests();
      const { plan } = await dryRunBulk(licensing, {
        poolId,
        rows: emails.map((email, i) => ({ line: i + 1, email, raw: email })),
      });
      const all = sandbox.requests.length;
      const enrolment = sandbox.requests.filter((r) => /^\/v1\/(student\?|licenses\?|pool\/\d+\/licenses)/.test(r.url));
      const way = enrolment[0]?.url.startsWith('/v1/student?')
        ? 'lookup'
        : enrolment[0]?.url.startsWith('/v1/licenses')
          ? 'licenses'
          : 'pools';
      const enrolled = plan.rows.filter((r) => r.verdict === 'already-enrolled').length;
      rows.push(
        `${String(perCourse).padStart(4)} pools/course · ${String(lines).padStart(3)} lines: ${way.padEnd(8)} ${String(enrolment.length).padStart(4)} enrolment reads (${(enrolment.length / walkAllPools).toFixed(2)} × walking the course's pools), ${all} requests in all; ${enrolled} already enrolled`,
      );
    }
  }
  console.log(rows.join('\n'));
  await licensing.close();
  await sandbox.close();
}

await main();
