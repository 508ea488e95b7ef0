/**
 * App Home through the app's listeners, without a process (listener harness): the app_home_opened
 * event per role (events/home.ts) and what each person finds published on the tab. The signed-HTTP
 * version, with the licensing budget share, is test/app/home.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId, DeskActionId } from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import type { TestApp } from '../../support/app-harness.js';
import type { SlackCall } from '../../support/fake-slack.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';
import { until } from '../../support/until.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-home-'));
  t = await startListenerApp({ dataDir: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const publishes = (user: string) =>
  t.slack.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === user);

/** Opens the Home tab as `user` and returns the last view published for them once the app is done. */
async function openHome(user: string, tab = 'home'): Promise<SlackCall | undefined> {
  const before = publishes(user).length;
  const sent = await t.event({ type: 'app_home_opened', user, channel: 'D0HOME0001', tab });
  expect(sent.status).toBe(200);
  await t.settled();
  // The full view is published after the loading one, in the listener's own time.
  if (tab === 'home')
    await until('the Home view', () =>
      publishes(user)
        .slice(before)
        .some((c) => !seen(c.args).text.includes('Reading your pools')),
    );
  return publishes(user).slice(before).at(-1);
}

describe('App Home', () => {
  it('an admin: the pools, the licenses ending soon by name, and the admin quick actions', async () => {
    const call = await openHome(TEST_USERS.admin);
    const view = call?.args.view as Record<string, unknown>;
    expect(view.type).toBe('home');
    const { text, buttons } = seen(view);
    expect(text).toContain('Mastering DAX');
    expect(text).toContain('Licenses ending within 14 days');
    expect(text).not.toMatch(/@(contoso|fabrikam)\.com/);
    expect(buttons).toEqual(
      expect.arrayContaining([ActionId.poolAssign, DeskActionId.bulkOpen, DeskActionId.homeRefresh]),
    );
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('a viewer: the same pools, without a button that changes anything', async () => {
    const call = await openHome(TEST_USERS.viewer);
    const { text, buttons } = seen(call?.args.view as Record<string, unknown>);
    expect(text).toContain('Mastering DAX');
    expect(buttons).not.toContain(ActionId.poolAssign);
    expect(buttons).not.toContain(DeskActionId.bulkOpen);
  });

  it('a member without a role: whom to ask, and no pool data', async () => {
    const call = await openHome(TEST_USERS.nobody);
    const { text } = seen(call?.args.view as Record<string, unknown>);
    expect(text).toContain(`<@${TEST_USERS.admin}>`);
    expect(text).not.toContain('Mastering DAX');
  });

  it('the Messages tab publishes nothing', async () => {
    expect(await openHome(TEST_USERS.admin, 'messages')).toBeUndefined();
  });
});
