/**
 * npm run bench:store (npx tsx bench/store.ts [approvals] [--audit]) — the records' figures, printed,
 * not asserted (docs/performance.md, "An approval's time in the database"):
 *
 *   1. The time one course request approval spends in the database, p50/p99 over 300 approvals
 *      (after 20 not counted), on SQLite in a temporary DATA_DIR (WAL; the intent's commit synced, as the app
 *      opens it) and on PostgreSQL when PG_BENCH_URL is set, else said to be skipped. PG_BENCH_URL names
 *      a server and a user that may create databases: each run creates an empty database of its own
 *      there (ld_bench_<random>), so it starts from empty tables as the SQLite run does, and drops it
 *      afterwards; nothing else on that server is read or written. The real
 *      request service (createRequestService over the database's request store, intents, outbox and
 *      audit trail) approves real pending requests; the licensing client talks to the in-process sandbox
 *      with a generous rate limit. Only database time is counted: Kysely's `log` hook (openRecords'
 *      `log` option) gives each query's duration, BEGIN and COMMIT included, summed per approval from
 *      Approve's decision (the request read, the transaction that moves it to 'assigning' with its
 *      intent) to the outcome recorded, the intent closed and the messages enqueued (the second
 *      transaction). The audit entry the service writes after that is shown on its own line. The
 *      outbox is not started: the messages wait in the table, as they do until the committed kick.
 *      Goal: p99 <= 5 ms on SQLite in every run (docs/performance.md); PostgreSQL's figures are shown
 *      beside it, with no goal of their own.
 *   2. App Home's recent changes with 1,000,000 audit rows and the database's size per 100,000 audit
 *      entries are bench/audit-store.ts's (npm run bench:audit-store). With --audit this script runs it
 *      after its own figures; without, it says where to find them.
 *   3. Start-up is bench/startup.ts's (npm run bench:startup): `npm start` next to a bare Bolt app, as
 *      the ratio of the medians. For the ratio to an earlier version, run it twice, once here and once
 *      with APP_ROOT=<a checkout of the earlier commit> (git worktree add /tmp/before <commit>, then
 *      npm ci there), and compare the two ratios (each against the bare Bolt app of the same run).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogEvent } from 'kysely';
import { buildDemoData, startSandbox } from '../local/sandbox/index.js';
import { openRecords, type Records } from '../src/kernel/db/open.js';
import { redactDatabaseUrl } from '../src/kernel/db/url.js';
import { createLicensingClient } from '../src/kernel/licensing/index.js';
import { createAuditLog } from '../src/kernel/services/audit.js';
import { createOutbox } from '../src/kernel/services/outbox.js';
import { createIntents } from '../src/kernel/services/writes/intents.js';
import { createLogger } from '../src/kernel/slack/logger.js';
import { createDbRequestStore } from '../src/requests/db/request-store.js';
import { requestTimers } from '../src/requests/domain/requests.js';
import { createRequestService } from '../src/requests/services/service.js';

const args = process.argv.slice(2);
const APPROVALS = Number(args.find((a) => /^\d+$/.test(a)) ?? 300);
const WARMUP = 20;
const POOL = '2002';
const APPROVER = 'U0ADMIN001';
const GOAL_P99_MS = 5;
/** Each run's p99 of the database time, by label, for the verdict at the end. */
const p99s = new Map<string, number>();

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const p99 = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    99,
  );

const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${percentile(s, 50).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms, max ${(s.at(-1) ?? 0).toFixed(2)} ms`;
};

/** The database time of the queries run while `current` is set: the audit insert apart from the rest. */
interface Meter {
  current: { db: number; commit: number; audit: number; queries: number } | undefined;
  log(event: LogEvent): void;
}

function meter(): Meter {
  const m: Meter = {
    current: undefined,
    log(event) {
      const c = m.current;
      if (!c) return;
      if (/^insert into "audit"/i.test(event.query.sql)) c.audit += event.queryDurationMillis;
      else {
        c.db += event.queryDurationMillis;
        c.queries += 1;
        if (/^commit$/i.test(event.query.sql.trim())) c.commit += event.queryDurationMillis;
      }
    },
  };
  return m;
}

async function approvals(label: string, open: (log: (event: LogEvent) => void) => Promise<Records>): Promise<void> {
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    seed: (() => {
      // Demo data, with seats enough in one pool for every approval.
      const data = buildDemoData(new Date());
      for (const p of data.pools) if (p.id === POOL) p.licenses += APPROVALS + WARMUP + 100;
      return data;
    })(),
  });
  const logger = createLogger({ level: 'error', write: () => undefined });
  const licensing = await createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    rateLimit: { limit: 1_000_000, windowMs: 60_000, marginMs: 0 },
    logger,
  });
  const m = meter();
  const records = await open((event) => m.log(event));
  const now = () => new Date();
  try {
    const outbox = createOutbox({ records, logger, now, deliver: async () => undefined });
    // Not started, and no kick: delivery (Slack's time) is not the approval's.
    await outbox.stop();
    const service = createRequestService({
      store: createDbRequestStore({
        db: records.db,
        dialect: records.dialect,
        now,
        durably: (fn) => records.durably(fn),
      }),
      intents: createIntents(records, now),
      outbox,
      licensing,
      audit: createAuditLog({ logger, records }),
      now,
      logger,
      timers: requestTimers(24, 7),
      limits: { maxOpen: 1_000, maxPerDay: 1_000 },
    });
    const run = `${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < APPROVALS + WARMUP; i += 1) {
      const created = await service.create({
        requester: `U0B${run}${i}`.toUpperCase(),
        requesterEmail: `bench.${run}.${i}@contoso.com`,
        requesterName: `Bench Student ${i}`,
        poolId: POOL,
        source: 'command',
      });
      if (!created.ok) throw new Error(`create: ${created.refusal.kind}`);
      ids.push(created.request.id);
    }
    const db: number[] = [];
    const commits: number[] = [];
    const withAudit: number[] = [];
    const wall: number[] = [];
    let queries = 0;
    for (const [i, id] of ids.entries()) {
      const c = { db: 0, commit: 0, audit: 0, queries: 0 };
      m.current = c;
      const t0 = performance.now();
      const outcome = await service.approve(id, APPROVER);
      const t = performance.now() - t0;
      m.current = undefined;
      if (outcome.kind !== 'assigned') throw new Error(`approve ${id}: ${outcome.kind}`);
      if (i < WARMUP) continue;
      db.push(c.db);
      commits.push(c.commit);
      withAudit.push(c.db + c.audit);
      wall.push(t);
      queries += c.queries;
    }
    const pending = await records.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('state', '=', 'pending')
      .executeTakeFirst();
    p99s.set(label, p99(db));
    const goal =
      records.dialect === 'sqlite'
        ? `goal p99 <= ${GOAL_P99_MS} ms`
        : `no goal of its own (SQLite's: p99 <= ${GOAL_P99_MS} ms)`;
    console.log(
      `${label}: database time of an approval (decision to outcome recorded and messages enqueued, ${Math.round(queries / APPROVALS)} statements with BEGIN/COMMIT): ${summary(db)} — ${goal}`,
    );
    const commitNote = records.dialect === 'sqlite' ? ' (the sync to disk on SQLite)' : '';
    console.log(`${label}:   of which the two COMMITs${commitNote}: ${summary(commits)}`);
    console.log(`${label}:   with the audit entry written after it: ${summary(withAudit)}`);
    console.log(
      `${label}:   whole approve() for comparison, the sandbox's HTTP round trip included: ${summary(wall)} (${APPROVALS} approvals after ${WARMUP} not counted; ${Number(pending?.n ?? 0)} messages enqueued)`,
    );
  } finally {
    await records.close();
    await licensing.close();
    await sandbox.close();
  }
}

/**
 * An empty database of its own on the server PG_BENCH_URL names, so that a run never starts on an
 * earlier run's rows; `drop()` removes it. Its URL is PG_BENCH_URL's with the database name replaced.
 */
async function emptyPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ld_bench_${randomBytes(6).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(
      `PostgreSQL: could not create an empty database for the run on ${redactDatabaseUrl(serverUrl)} (${why}); PG_BENCH_URL's user needs the CREATEDB privilege`,
    );
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}

async function main(): Promise<void> {
  console.log(
    `Load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${availableParallelism()} cores.`,
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-store-'));
  try {
    await approvals('SQLite', (log) => openRecords({ dataDir, heartbeatMs: 0, log }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  const pgUrl = process.env.PG_BENCH_URL?.trim();
  if (pgUrl) {
    const pgDataDir = await mkdtemp(join(tmpdir(), 'bench-store-pg-'));
    const database = await emptyPostgresDatabase(pgUrl);
    try {
      await approvals('PostgreSQL', (log) =>
        openRecords({ dataDir: pgDataDir, databaseUrl: database.url, heartbeatMs: 0, log }),
      );
    } finally {
      await database.drop();
      await rm(pgDataDir, { recursive: true, force: true });
    }
  } else {
    console.log(
      'PostgreSQL: skipped (set PG_BENCH_URL to a server where its user may create databases: each run makes an empty one and drops it).',
    );
  }
  const sqliteP99 = p99s.get('SQLite') ?? Number.NaN;
  console.log(
    `${sqliteP99 <= GOAL_P99_MS ? 'met    ' : 'MISSED '} an approval's database time on SQLite, p99 ${sqliteP99.toFixed(2)} ms <= ${GOAL_P99_MS} ms`,
  );
  if (args.includes('--audit')) {
    console.log('App Home and the audit table at 1,000,000 rows (bench/audit-store.ts):');
    const root = fileURLToPath(new URL('../', import.meta.url));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/audit-store.ts'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('bench/audit-store.ts failed');
  } else {
    console.log(
      "App Home's recent changes at 1,000,000 audit rows and the size per 100,000 entries: npm run bench:audit-store (or this script with --audit).",
    );
  }
  console.log(
    'Start-up as a ratio to a bare Bolt app: npm run bench:startup; to an earlier version, run it again with APP_ROOT=<checkout of that commit> and compare the two ratios.',
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
