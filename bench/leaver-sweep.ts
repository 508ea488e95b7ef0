/**
 * npm run bench:leavers (npx tsx bench/leaver-sweep.ts [holders] [leavers]) — what the weekly leaver
 * sweep costs (docs/leavers-and-offers.md, "The sweep and its cost"), printed, not asserted:
 *   - `holders` distinct holder e-mails (default 5,000), of whom `leavers` (default 50) were deactivated
 *     in Slack while License Desk was down, each holding two licenses;
 *   - the sweep's own code (src/leavers/services/sweep.ts, the hold use case, its SQLite store) runs
 *     against in-process fakes of Slack's users.lookupByEmail and of the licensing API;
 *   - its waits are not slept: they move a virtual clock, on which the fake licensing API keeps the
 *     limiter's 25 requests a rolling minute and the pools' read cache lasts 30 s. The time at the
 *     limits is that clock's: computed from the pacing (1 lookup per 1.2 s, Tier 3's 50 a minute) and
 *     the licensing budget. The wall time of the run is the fakes' and the store's work only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChangeContext } from '../src/changes/index.js';
import { openRecords } from '../src/kernel/db/open.js';
import type { LicensingClient, Logger } from '../src/kernel/licensing/types.js';
import { createLeaverHolds } from '../src/leavers/db/holds.js';
import { SLACK_LOOKUP_PACE_MS } from '../src/leavers/domain/leavers.js';
import type { LeaversContext } from '../src/leavers/services/context.js';
import { type SlackLookup, sweep } from '../src/leavers/services/sweep.js';

const HOLDERS = Number(process.argv[2] ?? 5_000);
const LEAVERS = Number(process.argv[3] ?? 50);
const LICENSING_PER_MINUTE = 25;
const POOL_CACHE_MS = 30_000;
const POOLS = 40;

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The licensing API at its limit: 25 a rolling minute on the virtual clock, pools cached 30 s. */
function fakeLicensing(clock: { t: number }) {
  const sent: number[] = [];
  const counts = { students: 0, pools: 0 };
  const cached = new Map<string, number>();
  const spend = () => {
    while (sent.filter((at) => at > clock.t - 60_000).length >= LICENSING_PER_MINUTE) {
      const oldest = sent.find((at) => at > clock.t - 60_000) ?? clock.t;
      clock.t = oldest + 60_000;
    }
    sent.push(clock.t);
  };
  const licensing = {
    students: {
      async find({ email }: { email: string }) {
        spend();
        counts.students += 1;
        const n = Number(email.slice(6, 11));
        const course = (k: number) => ({
          id: String(300 + k),
          title: `Course ${k}`,
          poolId: String(2000 + ((n + k) % POOLS)),
          licenseId: `${n}${k}`,
          licenseActive: true,
          licenseRevokable: true,
          licenseEditable: true,
          start: '2026-01-01',
          end: '2027-06-30',
          progress: 40,
          completed: null,
        });
        return { id: String(n), name: `Holder ${n}`, email, courses: [course(0), course(1)] };
      },
    },
    pools: {
      async get(id: string) {
        const at = cached.get(id);
        if (at === undefined || clock.t - at > POOL_CACHE_MS) {
          spend();
          counts.pools += 1;
          cached.set(id, clock.t);
        }
        return { id, transferable: Number(id) % 3 !== 0 };
      },
    },
  } as unknown as LicensingClient;

  return { licensing, counts };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-leavers-'));
  const clock = { t: Date.parse('2026-11-30T06:00:00Z') };
  const start = clock.t;
  const now = () => new Date(clock.t);
  const records = await openRecords({ dataDir: dir, heartbeatMs: 0, now });
  const emails = Array.from({ length: HOLDERS }, (_, i) => `holder${String(i).padStart(5, '0')}@contoso.com`);
  const step = Math.max(1, Math.floor(HOLDERS / Math.max(1, LEAVERS)));
  const gone = new Set(emails.filter((_, i) => i % step === 0).slice(0, LEAVERS));

  const { licensing, counts } = fakeLicensing(clock);

  const ctx: LeaversContext = {
    records,
    licensing,
    outbox: { enqueue: async () => undefined, kick: () => undefined },
    change: () => ({}) as ChangeContext,
    now,
    settings: { on: true, graceDays: 7 },
    channel: 'C0ALERTS01',
    logger: quiet,
    store: createLeaverHolds(records),
  };
  let lookups = 0;
  const wall = performance.now();
  const report = await sweep(ctx, {
    emails: async () => emails,
    async lookup(email): Promise<SlackLookup> {
      lookups += 1;
      return gone.has(email) ? { kind: 'deleted', user: `U${lookups}` } : { kind: 'active', user: `U${lookups}` };
    },
    async wait(ms) {
      clock.t += ms;
    },
    paceMs: SLACK_LOOKUP_PACE_MS,
    stopping: () => false,
  });
  const wallMs = performance.now() - wall;
  await records.close();
  await rm(dir, { recursive: true, force: true });

  const minutes = (clock.t - start) / 60_000;
  const licensingRequests = counts.students + counts.pools;
  const fmt = (n: number) => n.toLocaleString('en-US');
  console.log(`Leaver sweep of ${fmt(HOLDERS)} holders, ${fmt(LEAVERS)} of them deactivated (two licenses each)`);
  console.log(
    `  Slack requests:     ${fmt(report.slackRequests)} users.lookupByEmail (Tier 3: paced one per ${SLACK_LOOKUP_PACE_MS / 1000} s), ${report.rateLimited} answered 429`,
  );
  console.log(
    `  Licensing requests: ${fmt(licensingRequests)} (${fmt(counts.students)} student lookups by e-mail, ${fmt(counts.pools)} pool reads; 25 a minute, shared limiter)`,
  );
  console.log(`  Held:               ${fmt(report.held)} leavers`);
  console.log(
    `  Time at the limits: ${minutes.toFixed(1)} min (computed: the pacing's waits and the licensing budget on a virtual clock)`,
  );
  console.log(`  Measured wall time against the fakes, waits not slept: ${(wallMs / 1000).toFixed(2)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
