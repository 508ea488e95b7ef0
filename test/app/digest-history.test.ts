/**
 * The digest counts only completions that happened: the local demo's progress seed
 * (local/console/progress-demo.ts) writes a history that agrees with what the sandbox answers, so the
 * first real progress pass finds nothing changed; then `/licenses digest`, signed as Slack signs it,
 * says as many completions this week as the sandbox dates in the last seven days (never more than the
 * holders who completed), and a pool started this week has too little history for a forecast.
 */
import { describe, expect, it } from 'vitest';
import { seedDemoProgress } from '../../local/console/progress-demo.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { allText } from '../support/fixtures.js';
import { progressPassOn } from '../support/progress.js';

const DAY = 86_400_000;
const now = () => new Date();

const t = appPerFile('desk-digest-history-', (dataDir) => startTestApp({ dataDir, now }));

describe('the digest on the demo seed', () => {
  it('counts the completions of the last seven days once, and no forecast for a pool started this week', async () => {
    if (!t.records) throw new Error('no records');
    await seedDemoProgress(t.records, t.licensing, now(), t.deps.logger);
    // The seed agrees with the sandbox: the first real pass records no change and no new license.
    expect(await progressPassOn(t, now).run({ force: true })).toMatchObject({ kind: 'done', added: 0, changed: 0 });

    // What the sandbox says: completions dated in the last seven days, of active licenses in running pools.
    const at = Date.now();
    const running = new Set(
      t.sandbox.inspect
        .pools()
        .filter((p) => Date.parse(p.end) > at)
        .map((p) => p.id),
    );
    let thisWeek = 0;
    let completedHolders = 0;
    for (const l of t.sandbox.inspect.licenses().filter((x) => x.active && running.has(x.poolId))) {
      const course = t.sandbox.inspect.student({ email: l.student.email })?.courses.find((c) => c.licenseId === l.id);
      if (!course || (course.completed === null && course.progress < 100)) continue;
      completedHolders++;
      const done = course.completed === null ? Number.NaN : Date.parse(course.completed);
      if (done >= at - 7 * DAY && done < at) thisWeek++;
    }

    const reply = await (await t.command('digest')).waitForResponse((p) =>
      allText(p.body.blocks).includes('License digest'),
    );
    const text = allText(reply.body.blocks);
    const said = /This week: (\d+) completions?\./.exec(text);
    expect(said?.[1]).toBe(String(thisWeek));
    expect(thisWeek).toBeLessThanOrEqual(completedHolders);
    // Pool 2007 started two days ago: recorded days before its start do not make a pace.
    const started = t.sandbox.inspect.pool('2007');
    expect(Date.parse(started?.start ?? '')).toBeGreaterThan(at - 7 * DAY);
    expect(text).toContain('pool 2007: not enough history for a forecast yet');
  });
});
