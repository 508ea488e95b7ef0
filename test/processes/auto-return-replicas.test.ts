/**
 * The automatic return on two replicas (DATABASE_URL: two app instances over one sandbox, one fake Slack
 * and one PostgreSQL database). Replica A's return of a finished seat dies mid-DELETE: the licensing
 * service applied it, A never heard back and never said it was alive again (its DELETE's answer is
 * held at a proxy in front of the sandbox). About a minute later replica B takes the return over by
 * reading back, long before A's 5-minute claim would run out: no second DELETE, the return recorded
 * and audited once, the holder told once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { APP_ACTOR } from '../../src/kernel/domain/audit-entry.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import type { Outbox, OutboxSender } from '../../src/kernel/services/outbox.js';
import { createIntents } from '../../src/kernel/services/writes/intents.js';
import { registerWriteSettlers } from '../../src/kernel/services/writes/settle.js';
import { createProgressReturns } from '../../src/progress/db/returns.js';
import { startReplica, startTestApp, type TestApp } from '../support/app-harness.js';
import { holderInSlack } from '../support/fake-slack.js';
import { type HoldingProxy, startHoldingProxy } from '../support/kill-restart.js';
import { progressPassOn } from '../support/progress.js';
import { testDatabases } from '../support/records.js';
import { until } from '../support/until.js';

const postgres = testDatabases().find((d) => d.dialect === 'postgres');
const HOLDER = 'U0RETREP01';

describe.skipIf(postgres?.skip !== undefined)('automatic return on replicas', () => {
  let db: Awaited<ReturnType<NonNullable<typeof postgres>['open']>>;
  let sandbox: RunningSandbox;
  let proxy: HoldingProxy;
  let a: TestApp;
  let b: TestApp;
  const clock = { t: Date.parse('2026-11-25T10:00:00.000Z') };
  const nowA = () => new Date(clock.t);
  /** B runs a minute after A went silent. */
  let bAheadMs = 0;
  const nowB = () => new Date(clock.t + bAheadMs);
  const settings = { on: true, afterDays: 7, max: 1 };

  beforeAll(async () => {
    db = await (postgres as NonNullable<typeof postgres>).open();
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
    proxy = await startHoldingProxy(sandbox.url);
    a = await startTestApp({
      now: nowA,
      useSandbox: sandbox,
      licensing: { baseUrl: proxy.url },
      records: db.records,
      waitlist: { offers: { hours: 0 } },
      autoReturn: settings,
    });
    b = await startReplica(a, db.records, { now: nowB, waitlist: { offers: { hours: 0 } }, autoReturn: settings });
    // B's settler reads back License Desk's own revokes, as main.ts registers it.
    if (!b.settler) throw new Error('no settler');
    registerWriteSettlers(b.settler, {
      licensing: b.licensing,
      audit: b.audit,
      records: b.records ?? db.records,
      intents: createIntents(db.records, nowB),
      outbox: b.outbox as unknown as Outbox & OutboxSender,
      now: nowB,
    });
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await proxy?.close();
    await sandbox?.close();
    await db?.close();
  });

  it('a return whose replica died mid-DELETE is taken over by the other within about a minute, by reading back', async () => {
    // One finished seat in the transferable pool 2001; every other holder is at 10 %.
    for (const l of sandbox.inspect.licenses()) {
      if (l.active) sandbox.setProgress?.({ email: l.student.email }, l.courseId, { progress: 10, completed: null });
    }
    const seat = sandbox.inspect
      .licenses({ poolId: '2001' })
      .find((l) => l.active && Date.parse(l.end) > clock.t + 90 * DAY_MS) as License;
    expect(seat).toBeDefined();
    holderInSlack(a.slack, HOLDER, seat);
    sandbox.setProgress?.({ email: seat.student.email }, seat.courseId, {
      progress: 100,
      completed: new Date(clock.t - 3_600_000).toISOString(),
    });
    expect(await progressPassOn(a, nowA).run()).toMatchObject({ kind: 'done' });

    // A week later A's pass returns it; the licensing service applies the DELETE, A never hears back.
    clock.t += 8 * DAY_MS;
    const hold = proxy.hold({ method: 'DELETE', path: new RegExp(`^/v1/license/${seat.id}$`), phase: 'after' });
    void progressPassOn(a, nowA, async (pass) => void (await a.autoReturn?.afterPass(pass))).run();
    await until('A’s DELETE to be applied and its answer held', () => hold.request !== undefined, 20_000);
    expect(sandbox.inspect.license(seat.id)?.active).toBe(false);
    const returns = createProgressReturns(db.records);
    expect(await returns.get(seat.id)).toMatchObject({ state: 'returning' });

    // A minute on, A has not said it is alive: B's next read-back takes the return over.
    bAheadMs = 60_000;
    expect(await b.autoReturn?.service.resume()).toBe(1);
    expect(await returns.get(seat.id)).toMatchObject({ state: 'returned' });
    const deletes = sandbox.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.url)).toEqual([`/v1/license/${seat.id}`]);
    const intents = await db.records.db
      .selectFrom('intents')
      .select(['state'])
      .where('subject', '=', seat.id)
      .where('owner', '=', APP_ACTOR)
      .execute();
    expect(intents.map((i) => i.state)).toEqual(['closed']);

    await b.outbox?.flush();
    const dms = () =>
      a.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === `D${HOLDER.slice(1)}`);
    await until('the holder to be told', () => dms().length > 0);
    expect(dms()).toHaveLength(1);
    const audited = await db.records.db
      .selectFrom('audit')
      .select(['action', 'outcome'])
      .where('license_id', '=', seat.id)
      .execute();
    expect(audited).toEqual([{ action: 'auto-returned', outcome: 'done' }]);
  }, 90_000);
});
