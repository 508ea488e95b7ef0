/**
 * "Run the progress pass now" on an admin's App Home, signed as Slack signs the click: the daily pass
 * runs at once at its own share of the licensing budget, a second click while it runs starts nothing,
 * the admin is told by DM when it is done (with what it read) and Home shows it; a viewer has no button
 * and a forged click of theirs is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DeskActionId } from '../../src/kernel/blocks/ids.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { allText, buttons } from '../support/fixtures.js';
import { openHome } from '../support/progress.js';

const now = () => new Date();
// The daily pass as main.ts builds it, at a budget of 1 request per 3 s (so a pass of two pages
// takes long enough for a second click to find it running).
const t = appPerFile('desk-progress-now-', (dataDir) =>
  startTestApp({ dataDir, now, progressPass: { rateLimit: { limit: 1, windowMs: 3000 }, share: 1 } }),
);
beforeAll(() => {
  if (!t.records || !t.progressPass) throw new Error('no records');
});

const click = (userId: string) =>
  t.action(
    {
      actions: [
        {
          action_id: DeskActionId.progressRun,
          block_id: 'home_actions',
          type: 'button',
          value: 'progress',
          action_ts: `${Date.now() / 1000}`,
        },
      ],
      response_url: undefined,
      container: { type: 'view', view_id: 'V0HOME0001' },
    },
    { userId },
  );

const homeSays = (user: string, line: string) =>
  t.slack.waitForCall(
    'views.publish',
    (c) =>
      c.args.user_id === user && allText(c.args.view).includes(line) && !allText(c.args.view).includes('Refreshing'),
    15_000,
  );

describe('Run the progress pass now', () => {
  it('an admin runs it from App Home; a second click while it runs starts nothing; the end is told by DM with what it read', async () => {
    const admin = await openHome(t, TEST_USERS.admin);
    expect(buttons(admin.args.view).map((b) => b.action_id)).toContain(DeskActionId.progressRun);
    const viewer = await openHome(t, TEST_USERS.viewer);
    expect(buttons(viewer.args.view).map((b) => b.action_id)).not.toContain(DeskActionId.progressRun);

    const store = createProgressStore(t.records ?? (await Promise.reject(new Error('no records'))));
    expect(await store.holders()).toHaveLength(0);
    t.sandbox.clearRequests();
    await click(TEST_USERS.admin);
    await homeSays(
      TEST_USERS.admin,
      'The progress pass is running now, like the daily one: at most 20 licensing requests a minute',
    );
    await click(TEST_USERS.admin);
    await homeSays(TEST_USERS.admin, 'A progress pass is already running: nothing new was started.');

    const dm = await t.slack.waitForCall(
      'chat.postMessage',
      (c) =>
        c.args.channel === `D${TEST_USERS.admin.slice(1)}` && allText(c.args).includes('The progress pass is done'),
      20_000,
    );
    const held = await store.holders();
    expect(held.length).toBeGreaterThan(0);
    expect(allText(dm.args)).toContain(`${held.length} licenses read (${held.length} new, 0 changed)`);
    await homeSays(TEST_USERS.admin, `${held.length} licenses read`);
    // One pass, not two: the demo's 36 students fit one page, read once.
    expect(t.sandbox.requests.filter((r) => r.url.startsWith('/v1/students'))).toHaveLength(1);
  });

  it("a viewer's click is refused and runs nothing", async () => {
    t.sandbox.clearRequests();
    const before = t.slack.calls.length;
    await click(TEST_USERS.viewer);
    await t.settled();
    const told = t.slack.calls
      .slice(before)
      .filter((c) => c.method === 'chat.postMessage' && c.args.channel === `D${TEST_USERS.viewer.slice(1)}`);
    expect(allText(told.map((c) => c.args))).toMatch(/admin/i);
    expect(t.sandbox.requests.filter((r) => r.url.startsWith('/v1/students'))).toHaveLength(0);
  });
});
