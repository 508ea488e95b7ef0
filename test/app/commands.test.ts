/**
 * /licenses end to end: signed slash commands into the real app, the sandbox as the licensing API, and
 * what the user would see in the response_url posts.
 */
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { type RespondedRequest, startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import type { ResponseUrlPost } from '../support/fake-slack.js';
import { allText, buttons, mrkdwnText } from '../support/fixtures.js';

const WORKING = 'Working on it';
const isFinal = (p: ResponseUrlPost) => !String(p.body.text).includes(WORKING);
const final = (r: RespondedRequest) => r.waitForResponse(isFinal);
const PINGS = /<!(channel|here|everyone)>|<@U/;

const t = appPerFile('commands-', () =>
  startTestApp({
    slack: { users: [{ id: 'U0ALBERTO1', name: 'alberto', email: 'alberto.rossi@contoso.com' }] },
  }),
);

async function run(text: string, userId: string = TEST_USERS.admin) {
  const r = await t.command(text, { userId });
  expect(r.status).toBe(200);
  expect(r.body).toBe('');
  const post = await final(r);
  return { r, post, text: allText(post.body), ids: buttons(post.body).map((b) => b.action_id) };
}

describe('every subcommand', () => {
  it('help and an empty command explain the commands by role, with examples', async () => {
    const admin = await run('');
    expect(admin.text).toContain('license admin');
    expect(admin.text).toContain('/licenses find');
    const viewer = await run('help', TEST_USERS.viewer);
    expect(viewer.text).toContain('license viewer');
    expect(viewer.r.responses()).toHaveLength(1);
  });

  it("help's examples work on the demo's data: each one run as written finds what it names", async () => {
    const { text } = await run('help');
    const examples = [...(text.split('_Examples:_')[1] ?? '').matchAll(/`\/licenses ([^`]+)`/g)].map((m) => m[1] ?? '');
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const example of examples) {
      // Slack sends a picked @member as a mention: @alberto.rossi is the demo's Alberto Rossi.
      const typed = example.replace('@alberto.rossi', '<@U0ALBERTO1|alberto.rossi>');
      const answer = (await run(typed)).text;
      expect(answer, example).not.toMatch(/There is no|No student has|did not recognise|no longer exists/);
      expect(answer, example).not.toMatch(/:warning:/);
    }
  });

  it('pools: every pool with counts, bar, dates, warnings, and Assign only for admins', async () => {
    const admin = await run('pools');
    expect(admin.text).toContain('Mastering DAX');
    expect(admin.text).toContain('*0* of 8 available');
    expect(admin.text).toContain('Full: no seats left');
    expect(admin.text).toContain('Ends within 30 days');
    expect(admin.text).toContain('(ends in 3 weeks)');
    expect(admin.text).toContain('Ended');
    expect(admin.text).toMatch(/Valid [A-Z][a-z]{2} \d{1,2}, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    // The demo's seven pools: six still run and get Assign; the ended one (2006) comes last without it.
    expect(admin.ids.filter((id) => id === ActionId.poolAssign)).toHaveLength(6);
    expect(admin.ids.filter((id) => id === ActionId.poolLicenses)).toHaveLength(7);
    expect(admin.text).toContain('6 pools running, 1 ended · 20 of 61 seats available · page 1 of 1');
    expect(admin.text.lastIndexOf('pool `')).toBe(admin.text.indexOf('pool `2006`'));
    const viewer = await run('pools', TEST_USERS.viewer);
    expect(viewer.ids).not.toContain(ActionId.poolAssign);
    expect(viewer.ids.filter((id) => id === ActionId.poolLicenses)).toHaveLength(7);
  });

  it('pool <id>: the pool and ten of its licenses, with Next and the inactive switch', async () => {
    const { text, ids } = await run('pool 2001');
    expect(text).toContain('Licenses · Mastering DAX');
    expect(ids.filter((id) => id === ActionId.licenseDetails)).toHaveLength(10);
    expect(ids).toContain(ActionId.navNext);
    expect(ids).toContain(ActionId.navToggleInactive);
    const all = await run('pool 2001 all');
    expect(all.text).toContain('inactive included');
  });

  it('list [all]: licenses of every course, paged', async () => {
    const active = await run('list');
    expect(active.ids.filter((id) => id === ActionId.licenseDetails)).toHaveLength(10);
    expect(active.text).toContain('Active licenses');
    const all = await run('list all', TEST_USERS.viewer);
    expect(all.text).toContain('inactive included');
  });

  it('show <id>: student, course, pool, dates, status and the allowed change buttons', async () => {
    const admin = await run('show 4001');
    expect(admin.text).toContain('Mastering DAX');
    expect(admin.text).toMatch(/\*Start\*[\s\S]*\*End\*/);
    expect(admin.ids).toEqual([ActionId.licenseChangeEndDate, ActionId.poolLicenses, ActionId.licenseRevoke]);
    const viewer = await run('show 4001', TEST_USERS.viewer);
    expect(viewer.ids).toEqual([ActionId.poolLicenses]);
    // Pool 2002 is not transferable: no end-date change, and the admin is told why.
    const untransferable = await run('show 4017');
    expect(untransferable.ids).not.toContain(ActionId.licenseChangeEndDate);
    expect(untransferable.text).toContain('not transferable');
  });

  it('find <email>: one licensing request, with progress; Slack auto-linked e-mails work', async () => {
    await run('find alberto.rossi@contoso.com');
    t.sandbox.clearRequests();
    const { text } = await run('find <mailto:alberto.rossi@contoso.com|alberto.rossi@contoso.com>');
    expect(text).toContain('Alberto Rossi');
    expect(text).toContain('Mastering DAX');
    expect(text).toMatch(/% done|Completed/);
    expect(t.sandbox.requests.map((q) => q.url.split('?')[0])).toEqual(['/v1/student']);
  });

  it('find: a percentage reads as every percentage in License Desk does ("48 % done", never "48% done")', async () => {
    const { text } = await run('find marco.novak@contoso.com');
    expect(text).toMatch(/\d+ % done/);
    expect(text).not.toMatch(/\d%/);
  });

  it('find <@user>: the member e-mail from users.info; no e-mail or no such student is said plainly', async () => {
    const byMention = await run('find <@U0ALBERTO1|alberto>');
    expect(byMention.text).toContain('Alberto Rossi');
    expect(t.slack.calls.some((c) => c.method === 'users.info' && c.args.user === 'U0ALBERTO1')).toBe(true);
    const guest = await run(`find <@${TEST_USERS.guest}|gia.guest>`);
    expect(guest.text).toContain('has no e-mail address I can see');
    const stranger = await run('find <@U0ALEX0001|alex.kim>');
    expect(stranger.text).toContain('No student has the e-mail alex.kim@acme-learning.example');
  });

  it('students [page], courses and me', async () => {
    const students = await run('students 4');
    expect(students.text).toContain('Page 4');
    expect(students.ids).toContain(ActionId.navPrevious);
    const courses = await run('courses');
    expect(courses.text).toContain('Optimizing DAX');
    const me = await run('me', TEST_USERS.viewer);
    expect(me.text).toContain('Contoso Training');
    expect(me.text).toContain('contoso.com, fabrikam.com');
  });

  it('assign with a mistyped e-mail names the word and what it should be, not "one pool id only"', async () => {
    const { text } = await run('assign 2001 ada.contoso.com');
    expect(text).toContain('“ada.contoso.com” is not an e-mail address, an @member or a YYYY-MM-DD date');
    expect(text).not.toContain('one pool id only');
    // Two pool ids are still told as such.
    expect((await run('assign 2001 2002')).text).toContain('Please give one pool id only');
  });

  it('an ended pool offers no seat as "available": its unused seats are called unused', async () => {
    const { post } = await run('pools');
    const sections = ((post.body.blocks ?? []) as unknown[]).map((b) => mrkdwnText(b));
    const ended = sections.find((s) => s.includes('pool `2006`')) ?? '';
    expect(ended).toContain('Ended: no new licenses');
    expect(ended).toContain('0 of 10 assigned · 10 unused');
    expect(ended).not.toContain('available');
    const running = sections.find((s) => s.includes('pool `2001`')) ?? '';
    expect(running).toContain('of 20 available');
  });

  it('courses count only the seats of pools that still run, and say how many ended', async () => {
    // Data Modeling for Power BI: pool 2004 (3 of 12 free, running) and pool 2006 (10 of 10, ended).
    const { text } = await run('courses');
    expect(text).toContain('*3* of 12 seats available · 9 assigned · 1 pool running, 1 ended');
    expect(text).not.toContain('of 22 seats');
    // A course whose pools all run keeps the plain count.
    expect(text).toContain('*10* of 30 seats available · 20 assigned · 2 pools');
  });
});

describe('rules for every answer', () => {
  it('shows "working on it" first, then replaces it, ephemerally', async () => {
    const r = await t.command('list all');
    await final(r);
    const [first, second] = r.responses();
    expect(String(first?.body.text)).toContain(WORKING);
    expect(first?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(second?.body).toMatchObject({ response_type: 'ephemeral', replace_original: true });
  });

  it('marks every reply as sandbox data', async () => {
    const { post } = await run('me');
    expect(allText(post.body)).toContain('Sandbox data — not real licenses');
  });

  it('escapes API strings: the student named <!channel> pings nobody', async () => {
    const found = await run('find channel.co@fabrikam.com');
    expect(found.text).toContain('&lt;!channel&gt; &amp; Co');
    expect(mrkdwnText(found.post.body)).not.toMatch(PINGS);
    const licenseId = buttons(found.post.body).find((b) => b.action_id === ActionId.licenseDetails)?.value;
    const shown = await run(`show ${JSON.parse(licenseId ?? '{}').l}`);
    expect(shown.text).toContain('&lt;!channel&gt; &amp; Co');
    expect(mrkdwnText(shown.post.body)).not.toMatch(PINGS);
  });

  it('refuses a member without a role politely, names who to ask, shows no data, calls no API', async () => {
    t.sandbox.clearRequests();
    const { r, text, ids } = await run('find alberto.rossi@contoso.com', TEST_USERS.nobody);
    expect(text).toContain("you don't have access");
    expect(text).toContain(`<@${TEST_USERS.admin}>`);
    expect(text).not.toContain('Alberto');
    expect(ids).toEqual([]);
    expect(r.responses()).toHaveLength(1);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('lets members of a viewer user group look', async () => {
    expect((await run('pools', TEST_USERS.groupViewer)).text).toContain('Mastering DAX');
  });

  it.each([
    ['frobnicate', /I don't know “frobnicate”/],
    ['show', /give a license id/],
    ['pool 2001 2002', /does not take “2002”/],
    ['find @alberto', /pick the person/],
    ['find <!channel>', /neither an e-mail address nor a Slack member/],
    ['ｐｏｏｌ\u00a0<script>', /is not a pool id/],
    ['x'.repeat(3200), /far longer/],
  ])('answers bad input %j with help and one sentence, without an API call', async (input, reason) => {
    t.sandbox.clearRequests();
    const { post, text } = await run(input);
    expect(text).toMatch(reason);
    expect(text).toContain('/licenses pools');
    expect(mrkdwnText(post.body)).not.toMatch(PINGS);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('serves 20 identical pools commands from one cached pools request', async () => {
    t.licensing.invalidateCache();
    t.sandbox.clearRequests();
    for (let i = 0; i < 20; i++) await run('pools', TEST_USERS.viewer);
    expect(t.sandbox.requests.filter((q) => q.url.startsWith('/v1/pools'))).toHaveLength(1);
  });

  it('says which id does not exist (404)', async () => {
    expect((await run('pool 9999')).text).toContain('There is no pool with that id');
    expect((await run('show 9999')).text).toContain('There is no license with that id');
  });
});
