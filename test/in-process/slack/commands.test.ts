/**
 * /licenses read subcommands through the app's listeners, without a process (listener harness): what
 * an admin and a viewer see — the words and the buttons of the reply — and which licensing calls the
 * answer took. test/app/commands.test.ts sends the same over signed HTTP.
 */
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/kernel/blocks/ids.js';
import { appPerFile } from '../../support/app-per-file.js';
import { seen, startListenerApp, TEST_USERS } from '../../support/listener-harness.js';

const t = appPerFile('commands-', () =>
  startListenerApp({
    slack: { users: [{ id: 'U0ALBERTO1', name: 'alberto', email: 'alberto.rossi@contoso.com' }] },
  }),
);

/** The command's last reply, as the person sees it. */
async function run(text: string, userId: string = TEST_USERS.admin) {
  const r = await t.command(text, { userId });
  expect(r.status).toBe(200);
  const last = r.responses().at(-1);
  if (!last) throw new Error(`no reply to /licenses ${text}`);
  return { ...seen(last), replies: r.responses().length, body: last.body };
}

describe('the read subcommands', () => {
  it('help: the commands a viewer may use, without the admin-only ones', async () => {
    const viewer = await run('help', TEST_USERS.viewer);
    expect(viewer.text).toContain('license viewer');
    expect(viewer.text).toContain('/licenses find');
    expect(viewer.text).not.toContain('/licenses revoke');
    expect(viewer.replies).toBe(1);
    const admin = await run('help');
    expect(admin.text).toContain('license admin');
    expect(admin.text).toContain('/licenses revoke');
  });

  it('pools: counts and states per pool; Assign on running pools for an admin only', async () => {
    const admin = await run('pools');
    expect(admin.text).toContain('6 pools running, 1 ended · 20 of 61 seats available');
    expect(admin.text).toContain('Full: no seats left');
    expect(admin.text).toContain('Sandbox data — not real licenses');
    expect(admin.buttons.filter((b) => b === ActionId.poolAssign)).toHaveLength(6);
    const viewer = await run('pools', TEST_USERS.viewer);
    expect(viewer.buttons).not.toContain(ActionId.poolAssign);
    expect(viewer.buttons.filter((b) => b === ActionId.poolLicenses)).toHaveLength(7);
  });

  it('pool <id>: ten licenses with Details, Next and the inactive switch; an unknown pool is said plainly', async () => {
    const pool = await run('pool 2001');
    expect(pool.text).toContain('Licenses · Mastering DAX');
    expect(pool.buttons.filter((b) => b === ActionId.licenseDetails)).toHaveLength(10);
    expect(pool.buttons).toEqual(expect.arrayContaining([ActionId.navNext, ActionId.navToggleInactive]));
    const unknown = await run('pool 9999');
    expect(unknown.text).toContain('There is no pool with that id; `/licenses pools` lists your pools.');
    expect(unknown.buttons.filter((b) => b === ActionId.licenseDetails)).toEqual([]);
  });

  it('show <id>: the change buttons for an admin, none for a viewer', async () => {
    const admin = await run('show 4001');
    expect(admin.text).toContain('Mastering DAX');
    expect(admin.buttons).toEqual([ActionId.licenseChangeEndDate, ActionId.poolLicenses, ActionId.licenseRevoke]);
    const viewer = await run('show 4001', TEST_USERS.viewer);
    expect(viewer.buttons).toEqual([ActionId.poolLicenses]);
  });

  it('find <@member>: the e-mail from Slack, one licensing read, the courses with progress', async () => {
    t.sandbox.clearRequests();
    const found = await run('find <@U0ALBERTO1|alberto>');
    expect(found.text).toContain('Alberto Rossi');
    expect(found.text).toMatch(/% done|Completed/);
    expect(t.slack.calls.some((c) => c.method === 'users.info' && c.args.user === 'U0ALBERTO1')).toBe(true);
    expect(t.sandbox.requests.map((q) => q.url.split('?')[0])).toEqual(['/v1/student']);
  });

  it('expiring [days]: soonest first, Extend for an admin where it can be; a word that is no number of days is named', async () => {
    const soon = await run('expiring');
    expect(soon.text).toContain('Licenses ending within 14 days: 4 active licenses · soonest first · page 1 of 1');
    expect(soon.text.indexOf('*ends in 2 days*')).toBeLessThan(soon.text.indexOf('*ends in 6 days*'));
    // An admin gets Extend on each of them (all four can be extended).
    expect(soon.buttons).toEqual(Array(4).fill(ActionId.licenseChangeEndDate));
    const sixty = await run('expiring 60');
    expect(sixty.text).toContain('Licenses ending within 60 days: 13 active licenses · soonest first · page 1 of 2');
    expect(sixty.text).toContain('_Ends with its pool, so it cannot be extended._');
    expect(sixty.buttons).toContain(ActionId.navNext);
    const viewer = await run('expiring', TEST_USERS.viewer);
    expect(viewer.buttons).toEqual([]);
    const bad = await run('expiring soonish');
    expect(bad.text).toContain('“soonish” is not a number of days; give 1 to 365, as in `/licenses expiring 30`.');
  });

  it('a member without a role is refused with who to ask; no licensing call', async () => {
    t.sandbox.clearRequests();
    const refused = await run('pools', TEST_USERS.nobody);
    expect(refused.text).toContain("you don't have access");
    expect(refused.text).toContain(`<@${TEST_USERS.admin}>`);
    expect(refused.buttons).toEqual([]);
    expect(t.sandbox.requests).toEqual([]);
  });
});
