/**
 * Slack answers users.info with 429 (ratelimited) while License Desk resolves a role or an e-mail.
 * With LICENSE_ADMINS unset the workspace's admins are the license admins, so every role check asks
 * users.info: a real admin must hear "Slack is busy, try again", never "you don't have access", and
 * the failed check must not be remembered as "no role".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { assignState, openModal, submit, textOf, writes } from '../support/change-flow.js';
import type { SlackCall } from '../support/fake-slack.js';

// One workspace admin per test: the role resolver caches a users.info answer for 30 s.
const ADMINS = ['U0WSADM002', 'U0WSADM003', 'U0WSADM004', 'U0WSADM005'];
const [cmdAdmin = '', clickAdmin = '', formAdmin = '', homeAdmin = ''] = ADMINS;

let t: TestApp;
beforeAll(async () => {
  const users = ADMINS.map((id) => ({
    id,
    name: id.toLowerCase(),
    email: `${id.toLowerCase()}@acme.example`,
    isAdmin: true,
  }));
  t = await startTestApp({ admins: [], viewers: [], slack: { users } });
});
afterAll(() => t.close());

const BUSY =
  /Slack is busy right now, so I could not check your access; nothing was changed\. Please try again in about 7 s\./;
const rateLimitUsersInfo = () => t.slack.answer('users.info', { status: 429, retryAfterSec: 7 }, 1);
const settled = (p: { body: Record<string, unknown> }) => !String(p.body.text).includes('Working on it');

describe('users.info rate-limited during the role check', () => {
  it('a command from a workspace admin: Slack is busy, try again; the next try is served as admin', async () => {
    rateLimitUsersInfo();
    const first = await t.command('pools', { userId: cmdAdmin });
    const busy = await first.waitForResponse();
    expect(textOf(busy.body)).toMatch(BUSY);
    expect(textOf(busy.body)).not.toContain("don't have access");

    const again = await t.command('pools', { userId: cmdAdmin });
    const pools = await again.waitForResponse(settled);
    expect(textOf(pools.body)).toContain('Mastering DAX');
    expect(textOf(pools.body)).toContain('Assign');
  });

  it('a change button: Slack is busy, not "only license admins", and nothing is read or written', async () => {
    rateLimitUsersInfo();
    t.sandbox.clearRequests();
    const click = await t.clickButton(ActionId.licenseRevoke, '4010', { userId: clickAdmin });
    const told = await click.waitForResponse();
    expect(textOf(told.body)).toMatch(BUSY);
    expect(textOf(told.body)).not.toContain('Only license admins');
    expect(t.sandbox.requests).toEqual([]);
  });

  it('a form submission: the modal says Slack is busy, and nothing is written', async () => {
    // The form is opened by one admin (whose role is then cached) and submitted by another, not yet asked.
    const form = await openModal(t, () => t.command('assign 2001', { userId: cmdAdmin }));
    rateLimitUsersInfo();
    t.sandbox.clearRequests();
    const { ack } = await submit(t, form, assignState({ pool: '2001', email: 'busy.slack@contoso.com' }), formAdmin);
    expect(ack.response_action).toBe('update');
    expect(textOf(ack.view)).toMatch(BUSY);
    expect(writes(t)).toEqual([]);
  });

  it('the Home tab: Slack is busy with a Refresh button, not the "no access" page', async () => {
    rateLimitUsersInfo();
    const from = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: homeAdmin, channel: 'D0HOME0009', tab: 'home' });
    const published: SlackCall = await t.slack.waitForCall(
      'views.publish',
      (c) => t.slack.calls.indexOf(c) >= from && c.args.user_id === homeAdmin,
    );
    expect(textOf(published.args.view)).toMatch(BUSY);
    expect(textOf(published.args.view)).not.toContain("don't have access");
    expect(textOf(published.args.view)).toContain('Refresh');
  });
});

describe('users.info rate-limited while reading a member e-mail', () => {
  it('find @member: Slack is busy, try again or give an e-mail', async () => {
    // The admin's own users.info answer is cached by `help`; the member's lookup gets the 429.
    const admin = TEST_USERS.workspaceAdmin;
    const warm = await t.command('help', { userId: admin });
    await warm.waitForResponse();
    rateLimitUsersInfo();
    const r = await t.command('find <@U0ALEX0001|alex.kim>', { userId: admin });
    const told = await r.waitForResponse(settled);
    expect(textOf(told.body)).toContain("Slack is busy right now, so I could not read that member's e-mail");
    expect(textOf(told.body)).toContain('about 7 s');
  });
});
