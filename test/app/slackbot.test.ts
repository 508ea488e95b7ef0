/**
 * The Slackbot tools through the real boundary (docs/slackbot.md): the official MCP SDK client over
 * Streamable HTTP to POST /mcp, every request signed as Slack signs it, the caller in `_meta.slack`;
 * the fake Slack (roles, e-mails) and the licensing sandbox on loopback. Each tool for each role, each
 * refusal of the endpoint, and a change in two steps with exactly one licensing write and its audit
 * entry ("via Slackbot").
 *
 * Seed (sandbox demo data): pool 2003 (transferable, full), 2001 (transferable), 2002 (untransferable).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolsScope } from '../../src/kernel/domain/scope.js';
import type { License } from '../../src/kernel/domain/types.js';
import type { RoleResolver } from '../../src/kernel/slack/deps.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { holderInSlack } from '../support/fake-slack.js';
import { MCP_TEAM, type McpCaller, mcpAs, postMcp, textOf, toolCall } from '../support/mcp.js';
import { progressPassOn } from '../support/progress.js';
import { selfServiceTo } from '../support/requests.js';

const ADMIN = TEST_USERS.admin;
const ADMIN2 = 'U0MGR00002';
const VIEWER = TEST_USERS.viewer;
const NOBODY = TEST_USERS.nobody;
const LEARNER = 'U0LEARN001';
const HOLDER = 'U0LEARN002';
const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-slackbot-'));
let clock = new Date('2026-11-25T10:00:00.000Z');
let t: TestApp;
let admin: McpCaller;
let held: License;
let held2: License;

const deletes = () => t.sandbox.requests.filter((r) => r.method === 'DELETE');

beforeAll(async () => {
  t = await startTestApp({
    dataDir,
    now: () => clock,
    admins: [ADMIN, ADMIN2],
    ...selfServiceTo(),
    slackbot: { on: true },
  });
  const active = (await t.licensing.pools.allLicenses('2001')).filter((l) => l.active);
  held = active[0] as License;
  held2 = active.find((l) => l.student.email !== held.student.email) as License;
  holderInSlack(t.slack, LEARNER, held);
  holderInSlack(t.slack, HOLDER, held2);
  await progressPassOn(t, () => clock).run({ force: true });
  admin = await mcpAs(t, ADMIN);
}, 60_000);

afterAll(async () => {
  await admin?.close();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tools/list', () => {
  it('is the same for everyone: every tool with a title, read tools read-only, revoke destructive', async () => {
    const tools = await admin.list();
    const names = tools.map((x) => x.name).sort();
    expect(names).toEqual(
      [
        'assign_license',
        'extend_license',
        'find_licenses',
        'get_pool',
        'list_holders_by_progress',
        'list_pools',
        'list_waiting',
        'pool_run_out',
        'recycle_seat',
        'ask_more_time',
        'request_course',
        'revoke_license',
        'search_history',
      ].sort(),
    );
    for (const tool of tools) expect(tool.title, tool.name).toBeTruthy();
    const byName = new Map(tools.map((x) => [x.name, x]));
    for (const read of [
      'list_pools',
      'get_pool',
      'find_licenses',
      'list_holders_by_progress',
      'pool_run_out',
      'list_waiting',
      'search_history',
    ])
      expect(byName.get(read)?.annotations?.readOnlyHint, read).toBe(true);
    expect(byName.get('revoke_license')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const unsignedForNobody = await postMcp(t, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    expect(unsignedForNobody.status).toBe(200);
    expect((unsignedForNobody.json as { result: { tools: unknown[] } }).result.tools).toHaveLength(tools.length);
  });
});

describe('read tools, for each role', () => {
  it('list_pools: admins and viewers see the pools and their free seats; someone without a role is refused', async () => {
    const a = await admin.call('list_pools');
    expect(a.isError).toBeFalsy();
    expect(textOf(a)).toContain('Pool 2001');
    expect((a.structuredContent as { pools: { poolId: string }[] }).pools.map((p) => p.poolId)).toEqual(
      expect.arrayContaining(['2001', '2002', '2003']),
    );
    expect((a._meta as { slack: { blocks: unknown[] } }).slack.blocks.length).toBeGreaterThan(1);
    const v = await admin.call('list_pools', {}, VIEWER);
    expect(v.isError).toBeFalsy();
    const n = await admin.call('list_pools', {}, NOBODY);
    expect(n.isError).toBe(true);
    expect(textOf(n)).toContain("you don't have access to License Desk");
  });
});

const READS: [string, Record<string, unknown>][] = [
  ['get_pool', { poolId: '2001' }],
  ['list_holders_by_progress', { standing: 'not-started', poolId: '2001' }],
  ['pool_run_out', {}],
  ['list_waiting', {}],
  ['search_history', { id: '2001' }],
  ['find_licenses', { email: 'someone@contoso.com' }],
];

describe('every read tool', () => {
  it.each(READS)('%s answers a viewer and an admin, and refuses someone without a role', async (name, args) => {
    for (const who of [VIEWER, ADMIN]) {
      const r = await admin.call(name, args, who);
      expect(r.isError, `${name} as ${who}: ${textOf(r)}`).toBeFalsy();
      expect(r.structuredContent).toBeTruthy();
    }
    const n = await admin.call(name, args, NOBODY);
    expect(n.isError).toBe(true);
  });

  it('get_pool answers from the progress records: the holders by standing, and when it runs out', async () => {
    const r = await admin.call('get_pool', { poolId: '2001' }, VIEWER);
    const pool = (r.structuredContent as { pool: { standing?: { holders: number }; forecast?: { kind: string } } })
      .pool;
    expect(pool.standing?.holders).toBeGreaterThan(0);
    expect(pool.forecast?.kind).toBeTruthy();
    expect(textOf(r)).toContain('Runs out:');
  });

  it("a learner (no role) sees their own licenses only; a viewer finds anyone's by e-mail", async () => {
    const own = await admin.call('find_licenses', {}, LEARNER);
    expect(own.isError, textOf(own)).toBeFalsy();
    expect(textOf(own)).toContain(held.id);
    const other = await admin.call('find_licenses', { email: 'dana.lee@acme-learning.example' }, LEARNER);
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('You can see your own licenses only');
    const byViewer = await admin.call('find_licenses', { email: held.student.email }, VIEWER);
    expect(textOf(byViewer)).toContain(held.id);
  });

  it('a role narrowed to some pools sees those only, as on a click', async () => {
    const roles = t.deps.roles as RoleResolver;
    roles.scopeOf = async () => poolsScope(['2002']);
    try {
      const r = await admin.call('list_pools', {}, VIEWER);
      expect((r.structuredContent as { pools: { poolId: string }[] }).pools.map((p) => p.poolId)).toEqual(['2002']);
      const outside = await admin.call('get_pool', { poolId: '2001' }, VIEWER);
      expect(outside.isError).toBe(true);
      // A license of another pool reads, to a scoped admin, as one that does not exist: its pool is not named.
      const revoke = await admin.call('revoke_license', { licenseId: held.id }, ADMIN);
      expect(revoke.isError).toBe(true);
      expect(textOf(revoke)).not.toContain('2001');
      expect(textOf(revoke)).not.toContain('confirmToken');
    } finally {
      delete roles.scopeOf;
    }
  });
});

describe('the endpoint refuses, before any tool runs', () => {
  const call = toolCall('list_pools', {}, { user_id: ADMIN, team_id: MCP_TEAM });

  it('an unsigned or stale request: 401', async () => {
    const unsigned = await postMcp(t, call, { signed: false });
    expect(unsigned.status).toBe(401);
    expect(unsigned.json).toMatchObject({ error: { code: -32600, message: 'Invalid request' } });
    const stale = await postMcp(t, call, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(401);
  });

  it('GET and DELETE: 405', async () => {
    expect((await postMcp(t, '', { method: 'GET' })).status).toBe(405);
    expect((await postMcp(t, '', { method: 'DELETE' })).status).toBe(405);
  });

  it('a workspace that is not ours: 403; a tool call without its caller: 400', async () => {
    const other = await postMcp(t, toolCall('list_pools', {}, { user_id: ADMIN, team_id: 'T0OTHER001' }));
    expect(other.status).toBe(403);
    const nobody = await postMcp(t, toolCall('list_pools', {}));
    expect(nobody.status).toBe(400);
    expect(JSON.stringify(nobody.json)).toContain("the caller's Slack user");
  });

  it('arguments that fail the schema: a plain refusal, nothing read', async () => {
    const r = await admin.call('get_pool', { poolId: 'not a pool id!' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('A pool id is');
  });

  it('an oversized body: 413', async () => {
    const big = toolCall('find_licenses', { name: 'x'.repeat(70_000) }, { user_id: ADMIN, team_id: MCP_TEAM });
    expect((await postMcp(t, big)).status).toBe(413);
  });
});

describe('a change in two steps', () => {
  const posts = () => t.sandbox.requests.filter((r) => r.method === 'POST');

  it('revoke: the preview writes nothing; the confirm writes once, audited via Slackbot; others, replays and a lost role are refused', async () => {
    const before = deletes().length;
    const preview = await admin.call('revoke_license', { licenseId: held.id });
    expect(preview.isError, textOf(preview)).toBeFalsy();
    const { status, confirmToken } = preview.structuredContent as { status: string; confirmToken: string };
    expect(status).toBe('preview');
    expect(textOf(preview)).toContain(held.student.email);
    expect(JSON.stringify(preview._meta)).toContain('tool:revoke_license');
    expect(deletes().length).toBe(before);

    const byOther = await admin.call('revoke_license', { licenseId: held.id, confirmToken }, ADMIN2);
    expect(textOf(byOther)).toContain('only the person who asked for it can confirm it');

    const roles = t.deps.roles as RoleResolver;
    const roleOf = roles.roleOf;
    roles.roleOf = async (client, user) => (user === ADMIN ? 'viewer' : roleOf(client, user));
    try {
      const demoted = await admin.call('revoke_license', { licenseId: held.id, confirmToken });
      expect(demoted.isError).toBe(true);
      expect(textOf(demoted)).toContain('Only license admins can change licenses');
    } finally {
      roles.roleOf = roleOf;
    }
    expect(deletes().length).toBe(before);

    const done = await admin.call('revoke_license', { licenseId: held.id, confirmToken });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect((done.structuredContent as { status: string }).status).toBe('done');
    expect(deletes().length).toBe(before + 1);
    const entries = await t.audit.recent(10);
    expect(
      entries.find((e) => e.action === 'revoke' && e.licenseId === held.id && e.outcome === 'done')?.detail,
    ).toContain('via Slackbot');

    const replay = await admin.call('revoke_license', { licenseId: held.id, confirmToken });
    expect(textOf(replay)).toContain('confirmed already');
    expect(deletes().length).toBe(before + 1);
  });

  it('a preview confirmed after it expired is refused, and nothing is assigned', async () => {
    const before = posts().length;
    const args = { poolId: '2001', email: 'new.person@contoso.com' };
    const preview = await admin.call('assign_license', args);
    expect(preview.isError, textOf(preview)).toBeFalsy();
    const { confirmToken } = preview.structuredContent as { confirmToken: string };
    clock = new Date(clock.getTime() + 6 * 60_000);
    const late = await admin.call('assign_license', { ...args, confirmToken });
    expect(textOf(late)).toContain('has expired');
    const changed = await admin.call('assign_license', { ...args, email: 'other@contoso.com', confirmToken });
    expect(changed.isError).toBe(true);
    expect(posts().length).toBe(before);
  });

  it('request_course: a member asks for a seat for themselves in two steps; the request is made once', async () => {
    const store = t.deps.requests?.store;
    const before = (await store?.byRequester(LEARNER))?.length ?? 0;
    const preview = await admin.call('request_course', { poolId: '2002' }, LEARNER);
    expect(preview.isError, textOf(preview)).toBeFalsy();
    expect(textOf(preview)).toContain(held.student.email);
    expect((await store?.byRequester(LEARNER))?.length).toBe(before);
    const { confirmToken } = preview.structuredContent as { confirmToken: string };
    const sent = await admin.call('request_course', { poolId: '2002', confirmToken }, LEARNER);
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect((await store?.byRequester(LEARNER))?.length).toBe(before + 1);
    const again = await admin.call('request_course', { poolId: '2002', confirmToken }, LEARNER);
    expect(textOf(again)).toContain('confirmed already');
    expect((await store?.byRequester(LEARNER))?.length).toBe(before + 1);
    const asked = (await t.audit.recent(20)).find((e) => e.action === 'requested' && e.actor === LEARNER);
    expect(asked?.detail).toContain('via Slackbot');
  });

  it("ask_more_time: a holder asks to move the end of their own license in two steps; not someone else's", async () => {
    const pool = (await t.licensing.pools.list()).find((p) => p.id === '2001');
    const endDate = new Date(Date.parse(pool?.end ?? '') - 86_400_000).toISOString().slice(0, 10);
    const args = { licenseId: held2.id, endDate, reason: 'The exam moved' };
    const notMine = await admin.call('ask_more_time', args, LEARNER);
    expect(notMine.isError).toBe(true);
    const preview = await admin.call('ask_more_time', args, HOLDER);
    expect(preview.isError, textOf(preview)).toBeFalsy();
    const { confirmToken } = preview.structuredContent as { confirmToken: string };
    const sent = await admin.call('ask_more_time', { ...args, confirmToken }, HOLDER);
    expect(sent.isError, textOf(sent)).toBeFalsy();
    expect(textOf(sent)).toContain('Sent to the license admins');
    const asked = (await t.audit.recent(20)).find((e) => e.action === 'requested' && e.actor === HOLDER);
    expect(asked?.detail).toContain('more time asked');
    expect(asked?.detail).toContain('via Slackbot');
  });

  it('extend: the confirm changes the end once, through the same use case, audited via Slackbot', async () => {
    const active = (await t.licensing.pools.allLicenses('2001')).filter((l) => l.active);
    const target = active.find((l) => l.id !== held.id && l.id !== held2.id) as License;
    const pool = (await t.licensing.pools.list()).find((p) => p.id === '2001');
    const endDate = new Date(Date.parse(pool?.end ?? '') - 2 * 86_400_000).toISOString().slice(0, 10);
    const patches = () => t.sandbox.requests.filter((r) => r.method === 'PATCH').length;
    const before = patches();
    const preview = await admin.call('extend_license', { licenseId: target.id, endDate });
    expect(preview.isError, textOf(preview)).toBeFalsy();
    expect(patches()).toBe(before);
    const { confirmToken } = preview.structuredContent as { confirmToken: string };
    const done = await admin.call('extend_license', { licenseId: target.id, endDate, confirmToken });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(patches()).toBe(before + 1);
    expect((await t.licensing.licenses.get(target.id)).end.slice(0, 10)).toBe(endDate);
    const entries = await t.audit.recent(10);
    expect(entries.find((e) => e.action === 'extend' && e.licenseId === target.id)?.detail).toContain('via Slackbot');
  });

  it('recycle: the preview names the license that would end; the confirm ends it and assigns once', async () => {
    const args = { poolId: '2003', email: 'newcomer.recycle@contoso.com' };
    const before = posts().length;
    const preview = await admin.call('recycle_seat', args);
    expect(preview.isError, textOf(preview)).toBeFalsy();
    expect(textOf(preview)).toMatch(/end license \S+ of/);
    expect(posts().length).toBe(before);
    const { confirmToken } = preview.structuredContent as { confirmToken: string };
    const done = await admin.call('recycle_seat', { ...args, confirmToken });
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(posts().length).toBe(before + 1);
    const entries = await t.audit.recent(10);
    expect(entries.find((e) => e.action === 'recycle' && e.outcome === 'done')?.detail).toContain('via Slackbot');
  });

  it('a viewer cannot even preview a change, and the refusal is audited', async () => {
    const r = await admin.call('revoke_license', { licenseId: held.id }, VIEWER);
    expect(textOf(r)).toContain('Only license admins');
    const entries = await t.audit.recent(10);
    expect(
      entries.some((e) => e.actor === VIEWER && e.outcome === 'refused' && e.detail?.includes('via Slackbot')),
    ).toBe(true);
  });
});
