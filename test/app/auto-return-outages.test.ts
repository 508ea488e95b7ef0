/**
 * The automatic return of finished seats when the licensing service fails it (docs/progress.md): a
 * fresh read that fails leaves the seat for a later pass (nothing sent), a DELETE that fails ends the
 * return failed (not sent again), a license ended by someone else since the completion is not sent at all.
 * Driven as auto-return.test.ts drives it: complete progress passes with their after-work, the sandbox
 * (with its fault rules) as the licensing API, the app's clock moved past PROGRESS_RETURN_AFTER_DAYS.
 */
import { describe, expect, it } from 'vitest';
import type { Records } from '../../src/kernel/db/open.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import { createProgressReturns } from '../../src/progress/db/returns.js';
import type { AutoReturnRun } from '../../src/progress/services/auto-return.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { settableClock } from '../support/clock.js';
import { progressPassOn, returnCandidate } from '../support/progress.js';
import { callSandbox } from '../support/sandbox.js';
import { until } from '../support/until.js';

describe('automatic return of finished seats, when the licensing service fails it', () => {
  const { c: clock, now } = settableClock();
  const t = appPerFile('desk-auto-return-outages-', (dataDir) =>
    startTestApp({ dataDir, now, waitlist: { offers: { hours: 0 } }, autoReturn: { on: true, afterDays: 7, max: 10 } }),
  );
  let last: AutoReturnRun | undefined;
  const pass = () =>
    progressPassOn(t, now, async (p) => {
      last = await t.autoReturn?.afterPass(p);
    });
  const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
  const set = (l: License, progress: number, completed: string | null = null) =>
    t.sandbox.setProgress?.({ email: l.student.email }, l.courseId, { progress, completed });

  it('an unread license waits for the next pass, a failed DELETE is not sent again, a license ended elsewhere is not sent', async () => {
    const long = t.sandbox.inspect
      .licenses({ poolId: '2001' })
      .filter((l) => l.active && Date.parse(l.end) > clock.t + 90 * DAY_MS)
      .sort((a, b) => a.id.localeCompare(b.id));
    const [unread, refused, ended] = long as [License, License, License];
    for (const l of [unread, refused, ended])
      if (!l) throw new Error('the demo seed changed: not enough long licenses');
    for (const l of t.sandbox.inspect.licenses()) if (l.active) set(l, 10);
    const done = new Date(clock.t - 3_600_000).toISOString().replace('Z', '+00:00');
    for (const l of [unread, refused, ended]) set(l, 100, done);
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 0 });

    clock.t += 8 * DAY_MS;
    await until(`license ${ended.id} ended elsewhere`, async () => {
      if (t.sandbox.inspect.license(ended.id)?.active === false) return true;
      await callSandbox(t.sandbox, 'DELETE', `/v1/license/${ended.id}`);
      return false;
    });
    t.sandbox.clearRequests();
    t.sandbox.addFault({ kind: '500', method: 'GET', path: new RegExp(`^/v1/license/${unread.id}$`) });
    t.sandbox.addFault({ kind: '500', method: 'DELETE', path: new RegExp(`^/v1/license/${refused.id}$`) });
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    t.sandbox.clearFaults();
    expect(last).toMatchObject({ returned: 0, failed: 1, later: 1 });
    expect(deletes()).toEqual([`/v1/license/${refused.id}`]);
    expect(t.sandbox.inspect.license(refused.id)?.active).toBe(true);
    const failed = (await t.audit.recent(50)).find((e) => e.action === 'auto-returned' && e.licenseId === refused.id);
    expect(failed?.outcome).toBe('failed');

    // The next pass: the unread one is returned; the failed one is not sent again.
    clock.t += DAY_MS;
    t.sandbox.clearRequests();
    expect(await pass().run()).toMatchObject({ kind: 'done' });
    expect(last).toMatchObject({ returned: 1, failed: 0, gone: 0 });
    expect(deletes()).toEqual([`/v1/license/${unread.id}`]);
    expect(t.sandbox.inspect.license(unread.id)?.active).toBe(false);
  });

  it('claims a killed process left: a license ended by someone else is gone, one that cannot be read waits, then is returned once', async () => {
    const returns = createProgressReturns(t.records as Records);
    const [ended, unread] = t.sandbox.inspect
      .licenses({ poolId: '2001' })
      .filter((l) => l.active && Date.parse(l.end) > clock.t + 30 * DAY_MS)
      .sort((a, b) => a.id.localeCompare(b.id))
      // Not those of the test above (the lowest ids).
      .slice(-2) as [License, License];
    for (const l of [ended, unread]) {
      const candidate = returnCandidate(l, now());
      // Claimed by a process that died before it sent anything.
      expect(await returns.claim(candidate, now().toISOString(), now(), new Date(clock.t + 60_000))).toBe(true);
    }
    await until(`license ${ended.id} ended elsewhere`, async () => {
      if (t.sandbox.inspect.license(ended.id)?.active === false) return true;
      await callSandbox(t.sandbox, 'DELETE', `/v1/license/${ended.id}`);
      return false;
    });
    t.sandbox.clearRequests();
    clock.t += 120_000;
    t.sandbox.addFault({ kind: '500', method: 'GET', path: new RegExp(`^/v1/license/${unread.id}$`) });
    expect(await t.autoReturn?.service.resume()).toBe(1);
    t.sandbox.clearFaults();
    expect(await returns.get(ended.id)).toMatchObject({ state: 'gone' });
    expect(deletes()).toEqual([]);

    clock.t += 10 * 60_000;
    expect(await t.autoReturn?.service.resume()).toBe(1);
    expect(await returns.get(unread.id)).toMatchObject({ state: 'returned' });
    expect(await t.autoReturn?.service.resume()).toBe(0);
    expect(deletes()).toEqual([`/v1/license/${unread.id}`]);
  });
});
