/**
 * Roles kept in the database (docs/roles-and-approvals.md): an owner gives a pool admin a role on
 * chosen pools through `/licenses roles`, it works at once, the listing and the audit trail show it,
 * taking it away ends it; every refusal changes nothing; a non-owner's forged give is refused and
 * audited; a role given to a user group holds for its members.
 */
import { describe, expect, it } from 'vitest';
import { RolesActionId, RolesCallbackId, RolesInputId } from '../../src/kernel/blocks/ids.js';
import { approversOf, authorize, scopeOf } from '../../src/kernel/slack/gate.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';

const POOL_ADMIN = 'U0POOLADM1';
const GROUP_MEMBER = 'U0GRPADM01';
const GONE = 'U0GONE0001';
const BOT = 'U0BOTBOT01';
const GROUP = 'S0POOLADMS';

const t = appPerFile('roles-', (dataDir) =>
  startTestApp({
    dataDir,
    slack: {
      users: [
        { id: POOL_ADMIN, name: 'paula.admin', realName: 'Paula Admin', email: 'paula@acme-learning.example' },
        { id: GROUP_MEMBER, name: 'gina.group', realName: 'Gina Group', email: 'gina@acme-learning.example' },
        { id: GONE, name: 'gone.person', deleted: true },
        { id: BOT, name: 'a.bot', isBot: true },
      ],
      usergroups: { [TEST_USERS.viewerGroup]: [TEST_USERS.groupViewer], [GROUP]: [GROUP_MEMBER] },
    },
  }),
);

const sel = (value: string | undefined) => (value ? { value, text: { type: 'plain_text', text: value } } : null);

/** The "Give a role" form as Slack sends it back. */
function form(v: {
  person?: string;
  group?: string;
  role?: string;
  scope?: string;
  course?: string;
  pools?: string[];
}) {
  const I = RolesInputId;
  return {
    values: {
      [I.person.block]: { [I.person.action]: { type: 'users_select', selected_user: v.person ?? null } },
      [I.group.block]: { [I.group.action]: { type: 'static_select', selected_option: sel(v.group) } },
      [I.role.block]: { [I.role.action]: { type: 'radio_buttons', selected_option: sel(v.role) } },
      [I.scope.block]: { [I.scope.action]: { type: 'radio_buttons', selected_option: sel(v.scope) } },
      [I.course.block]: { [I.course.action]: { type: 'static_select', selected_option: sel(v.course) } },
      [I.pools.block]: {
        [I.pools.action]: { type: 'multi_static_select', selected_options: (v.pools ?? []).map(sel) },
      },
    },
  };
}

let views = 0;
/** Submits the form as `by`; what the modal ends up saying (the ack's view, or the update after "Checking"). */
async function give(state: ReturnType<typeof form>, by: string = TEST_USERS.admin): Promise<string> {
  const id = `V0ROLES${String(++views).padStart(3, '0')}`;
  const from = t.slack.calls.length;
  const r = await t.viewSubmission({ view: { id, callback_id: RolesCallbackId.give, state } }, { userId: by });
  const ack = r.body ? (JSON.parse(r.body) as Record<string, unknown>) : {};
  const shown = textOf(ack.view);
  if (!shown.includes('Checking the pools')) return r.body && ack.errors ? JSON.stringify(ack.errors) : shown;
  const update = await t.slack.waitForCall(
    'views.update',
    (c) => t.slack.calls.indexOf(c) >= from && c.args.view_id === id,
    10_000,
  );
  return textOf(update.args.view);
}

async function says(text: string, userId: string): Promise<string> {
  const r = await t.command(text, { userId });
  return textOf((await r.waitForResponse((p) => !String(p.body.text).includes('Working'))).body.blocks);
}

const listing = () => says('roles', TEST_USERS.admin);

async function grantIdOf(subject: string): Promise<string> {
  const r = await t.command('roles', { userId: TEST_USERS.admin });
  const post = await r.waitForResponse();
  const blocks = post.body.blocks as { text?: { text: string }; accessory?: { action_id: string; value: string } }[];
  const row = blocks.find((b) => b.accessory?.action_id === RolesActionId.takeAway && b.text?.text.includes(subject));
  if (!row?.accessory) throw new Error(`no row for ${subject}`);
  return row.accessory.value;
}

describe('an owner gives and takes a pool admin role', () => {
  it('works at once for that person, on their pools only, and is listed and audited', async () => {
    expect(await says('pools', POOL_ADMIN)).toContain("don't have access");
    expect(await listing()).toContain('No roles given yet');

    // "Give a role" opens the form with the workspace's groups and the pools.
    const from = t.slack.calls.length;
    const click = await t.clickButton(RolesActionId.give, 'give', { userId: TEST_USERS.admin });
    expect(click.status).toBe(200);
    const formView = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= from, 10_000);
    const formText = JSON.stringify(formView.args.view);
    expect(formText).toContain(GROUP);
    expect(formText).toContain('2003');

    const done = await give(form({ person: POOL_ADMIN, role: 'admin', scope: 'pools', pools: ['2003', '2001'] }));
    expect(done).toContain(`Gave <@${POOL_ADMIN}> the admin role on pools \`2001\`, \`2003\``);

    expect(await says('pools', POOL_ADMIN)).not.toContain("don't have access");
    const client = t.app.client;
    expect((await authorize(t.deps, client, POOL_ADMIN, 'admin')).allowed).toBe(true);
    const scope = await scopeOf(t.deps, client, POOL_ADMIN);
    expect(scope.all).toBe(false);
    expect(scope.all ? [] : [...scope.poolIds].sort()).toEqual(['2001', '2003']);
    expect(await approversOf(t.deps, client, '2003')).toEqual([POOL_ADMIN]);
    expect(await approversOf(t.deps, client, '2005')).toEqual([TEST_USERS.admin]);
    expect(await t.deps.roles.whoToAskFor?.('2001')).toBe(`<@${POOL_ADMIN}>`);
    expect(await t.deps.roles.whoToAskFor?.('2005')).toBe(`<@${TEST_USERS.admin}>`);

    const shown = await listing();
    expect(shown).toContain(`<@${POOL_ADMIN}> · *Admin* on pools \`2001\`, \`2003\``);
    expect(shown).toContain(`Given by <@${TEST_USERS.admin}>`);

    const given = (await t.audit.recent(20)).find((e) => e.action === 'role-given' && e.outcome === 'done');
    expect(given).toMatchObject({
      actor: TEST_USERS.admin,
      subject: POOL_ADMIN,
      role: 'admin',
      scope: 'pools 2001, 2003',
    });

    // Taken away: it stops working at once.
    const id = await grantIdOf(POOL_ADMIN);
    const take = await t.clickButton(RolesActionId.takeAway, id, { userId: TEST_USERS.admin });
    expect(textOf((await take.waitForResponse()).body.blocks)).toContain(`away from <@${POOL_ADMIN}>`);
    expect(await says('pools', POOL_ADMIN)).toContain("don't have access");
    const taken = (await t.audit.recent(20)).find((e) => e.action === 'role-taken');
    expect(taken).toMatchObject({ actor: TEST_USERS.admin, subject: POOL_ADMIN, outcome: 'done' });
    // Taking it again changes nothing.
    const again = await t.clickButton(RolesActionId.takeAway, id, { userId: TEST_USERS.admin });
    expect(textOf((await again.waitForResponse()).body.blocks)).toContain('taken away already');
  });
});

describe('refusals change nothing', () => {
  const givesRecorded = async () => (await t.audit.recent(200)).filter((e) => e.action === 'role-given').length;

  it.each([
    ['a deactivated person', { person: GONE }, 'deactivated'],
    ['a guest', { person: TEST_USERS.guest }, 'guest'],
    ['a bot', { person: BOT }, 'bot'],
    ['an owner', { person: TEST_USERS.admin }, 'is an owner'],
    ['a group that is not the workspace’s', { group: 'S0NOSUCH01' }, 'not one of this workspace'],
  ])('%s', async (_what, who, sentence) => {
    const n = await givesRecorded();
    expect(await give(form({ ...who, role: 'viewer', scope: 'all' }))).toContain(sentence);
    expect(await givesRecorded()).toBe(n);
  });

  it('a pool that does not exist, a course with no pools', async () => {
    const n = await givesRecorded();
    expect(await give(form({ person: POOL_ADMIN, role: 'admin', scope: 'pools', pools: ['2001', '9999'] }))).toContain(
      'There is no pool `9999`',
    );
    expect(await give(form({ person: POOL_ADMIN, role: 'admin', scope: 'course', course: '999' }))).toContain(
      'That course has no pools',
    );
    expect(await givesRecorded()).toBe(n);
    expect(await says('pools', POOL_ADMIN)).toContain("don't have access");
  });

  it('the same role twice', async () => {
    const state = form({ person: TEST_USERS.nobody, role: 'viewer', scope: 'pools', pools: ['2002'] });
    expect(await give(state)).toContain('Gave');
    expect(await give(form({ person: TEST_USERS.nobody, role: 'viewer', scope: 'pools', pools: ['2002'] }))).toContain(
      'That role already exists',
    );
  });

  it('a form without a person or a scope is sent back with the field to fix', async () => {
    const errors = await give(form({ role: 'admin', scope: 'pools' }));
    expect(errors).toContain(RolesInputId.person.block);
    expect(errors).toContain(RolesInputId.pools.block);
  });

  it('taking away an owner', async () => {
    const r = await t.clickButton(RolesActionId.takeAway, TEST_USERS.admin, { userId: TEST_USERS.admin });
    expect(textOf((await r.waitForResponse()).body.blocks)).toContain('cannot be taken away from Slack');
  });

  it('a non-owner: the command, a forged give and a forged take are refused and audited', async () => {
    expect(await give(form({ person: POOL_ADMIN, role: 'admin', scope: 'all' }))).toContain('Gave');
    expect(await says('roles', POOL_ADMIN)).toContain('Only the owners');
    const n = await givesRecorded();
    expect(await give(form({ person: TEST_USERS.nobody, role: 'admin', scope: 'all' }), POOL_ADMIN)).toContain(
      'Only the owners',
    );
    expect(await givesRecorded()).toBe(n + 1);
    const refused = (await t.audit.recent(20)).find((e) => e.action === 'role-given' && e.outcome === 'refused');
    expect(refused).toMatchObject({ actor: POOL_ADMIN, detail: 'not an owner', subject: TEST_USERS.nobody });
    // A viewer's forged click is refused by the gate itself.
    const click = await t.clickButton(RolesActionId.takeAway, 'rg0000000000000000', { userId: TEST_USERS.viewer });
    expect(textOf((await click.waitForResponse()).body.blocks)).toContain('Only license admins');
    const id = await grantIdOf(POOL_ADMIN);
    const forged = await t.clickButton(RolesActionId.takeAway, id, { userId: POOL_ADMIN });
    expect(textOf((await forged.waitForResponse()).body.blocks)).toContain('Only the owners');
    expect(await listing()).toContain(`<@${POOL_ADMIN}> · *Admin* on every pool`);
  });
});

describe('a role given to a user group', () => {
  it('holds for its members, on the pools of one course', async () => {
    expect(await says('pools', GROUP_MEMBER)).toContain("don't have access");
    expect(await give(form({ group: GROUP, role: 'viewer', scope: 'course', course: '302' }))).toContain(
      `Gave <!subteam^${GROUP}> the viewer role on the pools of *Optimizing DAX*`,
    );
    expect(await says('pools', GROUP_MEMBER)).not.toContain("don't have access");
    const scope = await scopeOf(t.deps, t.app.client, GROUP_MEMBER);
    expect(scope.all ? 'all' : [...scope.poolIds]).toEqual(['2003']);
    expect((await authorize(t.deps, t.app.client, GROUP_MEMBER, 'admin')).allowed).toBe(false);
  });
});
