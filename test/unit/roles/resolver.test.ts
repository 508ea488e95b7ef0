/**
 * The roles kept in the database, worked out (docs/roles-and-approvals.md): a person's role and scope
 * from their grants and the environment's, the admins of a pool and whom to ask, with the Slack lookups,
 * the grants and the pool list standing in.
 */
import type { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../src/kernel/domain/types.js';
import type { Role, RoleResolver } from '../../../src/kernel/slack/deps.js';
import { createRolesResolver, type Grant, scopeWords } from '../../../src/roles/index.js';

const client = {} as webApi.WebClient;
const OWNER = 'U0OWNER001';
const VIEWER = 'U0VIEWER01';

function env(roles: Record<string, Role>): RoleResolver {
  return {
    roleOf: async (_c, id) => roles[id] ?? 'none',
    whoToAsk: () => `<@${OWNER}>`,
    adminUsers: () => [OWNER],
    adminRecipients: async () => [OWNER],
  };
}

const pool = (id: string, course: string): Pool =>
  ({ id, course: { id: course, title: `Course ${course}` } }) as unknown as Pool;
const POOLS = [pool('2001', '301'), pool('2002', '301'), pool('2003', '302')];

let n = 0;
const grant = (subject: string, role: Grant['role'], scope: Grant['scope']): Grant => ({
  id: `rg${String(++n).padStart(16, '0')}`,
  subject,
  role,
  scope,
  givenBy: OWNER,
  givenAt: '2026-11-27T10:00:00.000Z',
});

function resolver(
  grants: Grant[],
  groups: Record<string, string[]> = {},
  pools: () => Promise<Pool[]> = async () => POOLS,
) {
  let clock = 0;
  const r = createRolesResolver({
    env: env({ [OWNER]: 'admin', [VIEWER]: 'viewer' }),
    lookups: { members: async (_c, id) => new Set(groups[id] ?? []) },
    store: { all: async () => [...grants] },
    index: {
      pools,
      courses: async () => {
        try {
          return new Map((await pools()).map((p) => [p.id, p.course.id]));
        } catch {
          return new Map();
        }
      },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    now: () => clock,
  });
  const tick = (ms: number) => {
    clock += ms;
  };
  return { r, tick };
}

const ids = (s: { all: boolean; poolIds?: ReadonlySet<string> }) =>
  s.all ? 'every pool' : [...(s.poolIds ?? [])].sort();

describe('roleOf and scopeOf', () => {
  it('the owners and the environment’s viewers cover every pool; no grant, no role', async () => {
    const { r } = resolver([]);
    expect(await r.roleOf(client, OWNER)).toBe('admin');
    expect(ids((await r.scopeOf?.(client, OWNER)) as never)).toBe('every pool');
    expect(await r.roleOf(client, VIEWER)).toBe('viewer');
    expect(ids((await r.scopeOf?.(client, VIEWER)) as never)).toBe('every pool');
    expect(await r.roleOf(client, 'U0NOBODY01')).toBe('none');
    expect(ids((await r.scopeOf?.(client, 'U0NOBODY01')) as never)).toEqual([]);
  });

  it('the union of a person’s grants and their groups’, a course resolved to its pools', async () => {
    const { r } = resolver(
      [
        grant('U0PA000001', 'admin', { kind: 'pools', poolIds: ['2003'] }),
        grant('S0GROUP001', 'admin', { kind: 'course', courseId: '301' }),
        grant('U0PA000001', 'viewer', { kind: 'all' }),
      ],
      { S0GROUP001: ['U0PA000001', 'U0OTHER001'] },
    );
    expect(await r.roleOf(client, 'U0PA000001')).toBe('admin');
    // The admin's scope: its admin grants only (the viewer grant on every pool does not widen it).
    expect(ids((await r.scopeOf?.(client, 'U0PA000001')) as never)).toEqual(['2001', '2002', '2003']);
    expect(ids((await r.scopeOf?.(client, 'U0OTHER001')) as never)).toEqual(['2001', '2002']);
  });

  it('a viewer from the environment given an admin role is an admin on that role’s pools', async () => {
    const { r } = resolver([grant(VIEWER, 'admin', { kind: 'pools', poolIds: ['2002'] })]);
    expect(await r.roleOf(client, VIEWER)).toBe('admin');
    expect(ids((await r.scopeOf?.(client, VIEWER)) as never)).toEqual(['2002']);
  });

  it('a course scope covers no pool while the pool list cannot be read (fail closed)', async () => {
    const { r } = resolver([grant('U0PA000001', 'viewer', { kind: 'course', courseId: '301' })], {}, async () => {
      throw new Error('down');
    });
    expect(await r.roleOf(client, 'U0PA000001')).toBe('viewer');
    expect(ids((await r.scopeOf?.(client, 'U0PA000001')) as never)).toEqual([]);
  });

  it('the grants are read again once their cache time is over, at once after forget()', async () => {
    const grants: Grant[] = [];
    const { r, tick } = resolver(grants);
    expect(await r.roleOf(client, 'U0LATE0001')).toBe('none');
    grants.push(grant('U0LATE0001', 'viewer', { kind: 'all' }));
    expect(await r.roleOf(client, 'U0LATE0001')).toBe('none');
    tick(10_001);
    expect(await r.roleOf(client, 'U0LATE0001')).toBe('viewer');
    grants.length = 0;
    r.forget();
    expect(await r.roleOf(client, 'U0LATE0001')).toBe('none');
  });
});

describe('approversOf and whoToAskFor', () => {
  const grants = [
    grant('U0PA000001', 'admin', { kind: 'pools', poolIds: ['2003'] }),
    grant('S0GROUP001', 'admin', { kind: 'course', courseId: '301' }),
    grant('U0VW000001', 'viewer', { kind: 'all' }),
  ];
  const { r } = resolver(grants, { S0GROUP001: ['U0GA000001', 'U0GA000002'] });

  it('the admins whose scope covers the pool, groups expanded; else the owners', async () => {
    expect(await r.approversOf?.(client, '2003')).toEqual(['U0PA000001']);
    expect(await r.approversOf?.(client, '2001')).toEqual(['U0GA000001', 'U0GA000002']);
    expect(await r.approversOf?.(client, '2999')).toEqual([OWNER]);
  });

  it('mentions of the pool’s admins; else whom to ask', async () => {
    expect(await r.whoToAskFor?.('2002')).toBe('<!subteam^S0GROUP001>');
    expect(await r.whoToAskFor?.('2999')).toBe(`<@${OWNER}>`);
  });
});

describe('scopeWords', () => {
  it('says the scope', () => {
    expect(scopeWords({ kind: 'all' })).toBe('every pool');
    expect(scopeWords({ kind: 'course', courseId: '301', courseTitle: 'Mastering DAX' })).toBe(
      'the pools of *Mastering DAX*',
    );
    expect(scopeWords({ kind: 'pools', poolIds: ['2003', '2001', '2003'] })).toBe('pools `2001`, `2003`');
  });
});
