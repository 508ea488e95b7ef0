/**
 * App Home end to end: a signed app_home_opened event per role, the views.publish calls the
 * fake Slack records, the licensing requests the sandbox records (the budget share), Block Kit limits.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId, ApproverActionId, DeskActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import type { SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { selfServiceTo } from '../support/requests.js';
import { maxInRollingWindow } from '../support/rolling-window.js';

// Course requests set up: "Request a course" is offered to whoever may ask for one.
const t = appPerFile('desk-home-', (dataDir) => startTestApp({ dataDir, ...selfServiceTo('C0REQUESTS1') }));

const publishes = (user: string, app: TestApp = t) =>
  app.slack.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === user);
const isFinal = (c: SlackCall) =>
  !allText(c.args.view).includes('Refreshing') && allText(c.args.view).includes('Pools');

async function openHome(user: string, app: TestApp = t): Promise<SlackCall> {
  const before = publishes(user, app).length;
  const sent = await app.event({ type: 'app_home_opened', user, channel: 'D0HOME0001', tab: 'home' });
  expect(sent.status).toBe(200);
  return app.slack.waitForCall(
    'views.publish',
    (c) => c.args.user_id === user && publishes(user, app).indexOf(c) >= before && isFinal(c),
    10_000,
  );
}

describe('App Home', () => {
  it('admin: pool cards, licenses ending within 14 days by name, recent changes, and every quick action', async () => {
    const call = await openHome(TEST_USERS.admin);
    const view = call.args.view as { type: string };
    expect(view.type).toBe('home');
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    const text = allText(view);
    expect(text).toContain('Mastering DAX');
    expect(text).toContain('Licenses ending within 14 days');
    expect(text).toMatch(/Recent changes/);
    expect(text).not.toMatch(/@(contoso|fabrikam)\.com/);
    // The student named <!channel> & Co is escaped, pinging nobody.
    expect(text).not.toMatch(/<!channel>|<!here>/);
    const ids = buttons(view).map((b) => b.action_id);
    expect(ids).toEqual([
      ActionId.poolAssign,
      DeskActionId.bulkOpen,
      RequestActionId.open,
      DeskActionId.homeRefresh,
      // "Away and delegates" (docs/roles-and-approvals.md).
      ApproverActionId.awayOpen,
      ApproverActionId.dailyList,
    ]);
    // The first publish came before any licensing answer: a loading view at once.
    const first = publishes(TEST_USERS.admin)[0];
    expect(allText(first?.args.view)).toContain('Reading your pools');
  });

  it('viewer: the same data from the snapshot, without the change buttons, and no new licensing request', async () => {
    const before = t.sandbox.requests.length;
    const call = await openHome(TEST_USERS.viewer);
    expect(buttons(call.args.view).map((b) => b.action_id)).toEqual([RequestActionId.open, DeskActionId.homeRefresh]);
    expect(allText(call.args.view)).toContain('Mastering DAX');
    expect(t.sandbox.requests.length).toBe(before);
  });

  it('nobody: a polite view naming whom to ask, no data, no licensing request', async () => {
    const before = t.sandbox.requests.length;
    await t.event({ type: 'app_home_opened', user: TEST_USERS.nobody, channel: 'D0HOME0002', tab: 'home' });
    const call = await t.slack.waitForCall('views.publish', (c) => c.args.user_id === TEST_USERS.nobody);
    const text = allText(call.args.view);
    expect(text).toContain(`<@${TEST_USERS.admin}>`);
    expect(text).not.toContain('Mastering DAX');
    // Only the way to ask for a course (REQUESTERS decides when it is clicked).
    expect(buttons(call.args.view).map((b) => b.action_id)).toEqual([RequestActionId.open]);
    expect(t.sandbox.requests.length).toBe(before);
  });

  it('a guest: told what a guest can do (ask an admin for a seat), never to ask to be added', async () => {
    await t.event({ type: 'app_home_opened', user: TEST_USERS.guest, channel: 'D0HOME0003', tab: 'home' });
    const call = await t.slack.waitForCall('views.publish', (c) => c.args.user_id === TEST_USERS.guest);
    const text = allText(call.args.view);
    expect(text).toContain("as a guest you can't use it or request a course here");
    expect(text).toContain(`If you need a seat in a course, send <@${TEST_USERS.admin}> a message`);
    expect(text).not.toContain('to add you');
    expect(text).not.toContain('Mastering DAX');
    expect(buttons(call.args.view)).toEqual([]);
  });

  it('the Messages tab does not publish the dashboard', async () => {
    const before = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: TEST_USERS.admin, channel: 'D0HOME0001', tab: 'messages' });
    await t.settled();
    expect(t.slack.calls.slice(before).filter((c) => c.method === 'views.publish')).toEqual([]);
  });
});

describe('App Home: the budget share', () => {
  // Its own desk and sandbox, so that no other test's requests share its rate windows.
  let b: TestApp;
  let bdir: string;
  beforeAll(async () => {
    bdir = await mkdtemp(join(tmpdir(), 'desk-home-budget-'));
    b = await startTestApp({ dataDir: bdir });
  });
  afterAll(async () => {
    await b?.close();
    await rm(bdir, { recursive: true, force: true });
  });

  it('Refresh never spends more than the budget share: 5 requests per rolling window at 0.2 of 25', async () => {
    await openHome(TEST_USERS.admin, b);
    for (let i = 0; i < 6; i++) {
      const before = publishes(TEST_USERS.admin, b).length;
      await b.clickButton(DeskActionId.homeRefresh, 'refresh', { userId: TEST_USERS.admin });
      await b.slack.waitForCall(
        'views.publish',
        (c) => publishes(TEST_USERS.admin, b).indexOf(c) >= before && isFinal(c),
      );
    }
    // Every licensing request this app made was the dashboard's.
    const times = b.sandbox.requests.map((r) => r.at);
    expect(times.length).toBeGreaterThan(0);
    expect(maxInRollingWindow(times, 3000)).toBeLessThanOrEqual(5);
    expect(b.deps.desk?.dashboard.budget().spent).toBeLessThanOrEqual(5);
    const last = publishes(TEST_USERS.admin, b).at(-1);
    expect(allText(last?.args.view)).toContain('share of the licensing rate budget');
    expect(checkBlockKitLimits(last?.args.view, 'view')).toEqual([]);
  });
});
