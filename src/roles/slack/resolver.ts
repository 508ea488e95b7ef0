/**
 * The role resolver with roles kept in the database (docs/roles-and-approvals.md): the environment's
 * roles (kernel/slack/roles.ts, unchanged) first, then the grants an owner gave in Slack, a person's own
 * and their user groups' (expanded with the same cached usergroups.users.list answers as the
 * environment's groups). The owners (LICENSE_ADMINS) and the environment's roles cover every pool; a
 * granted role covers the union of its grants, a course's grants its pools as the cached pool list says.
 *
 * Checked on every request: the grants are read at most every GRANTS_TTL_MS (a role taken away on another
 * replica stops working within it; on this one at once), groups every 60 s (roles.ts), the pool list
 * every few minutes (pool-index.ts).
 */
import type { webApi } from '@slack/bolt';
import { EVERY_POOL, type Scope } from '../../kernel/domain/scope.js';
import type { Logger } from '../../kernel/licensing/types.js';
import type { RoleResolver } from '../../kernel/slack/deps.js';
import type { SlackLookups } from '../../kernel/slack/roles.js';
import type { GrantStore } from '../db/grants.js';
import { covers, type Grant, isGroupId, mentionList, roleFromGrants, subjectMention } from '../domain/grants.js';
import type { PoolIndex } from '../services/pool-index.js';

export const GRANTS_TTL_MS = 10_000;

type Client = webApi.WebClient;

/** The resolver, and what `/licenses roles` needs of it: who the owners are, and a fresh read after a change. */
export interface RolesResolver extends RoleResolver {
  /** An owner: LICENSE_ADMINS (or, without it, the workspace's admins and owners). */
  isOwner(client: Client, userId: string): Promise<boolean>;
  /** Drops the cached grants: the next check reads them afresh. */
  forget(): void;
}

export function createRolesResolver(p: {
  env: RoleResolver;
  lookups: Pick<SlackLookups, 'members'>;
  store: Pick<GrantStore, 'all'>;
  index: PoolIndex;
  logger: Logger;
  now?: () => number;
  ttlMs?: number;
}): RolesResolver {
  const { env } = p;
  const now = p.now ?? Date.now;
  const ttl = p.ttlMs ?? GRANTS_TTL_MS;
  let cached: { at: number; value: Promise<Grant[]> } | undefined;

  function grants(): Promise<Grant[]> {
    if (cached && now() - cached.at < ttl) return cached.value;
    const entry = { at: now(), value: p.store.all() };
    cached = entry;
    entry.value.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return entry.value;
  }

  /** The grants that are this person's: their own, and their groups' (a group Slack cannot list counts as none). */
  async function grantsOf(client: Client, userId: string): Promise<Grant[]> {
    const out: Grant[] = [];
    for (const g of await grants()) {
      if (g.subject === userId || (isGroupId(g.subject) && (await p.lookups.members(client, g.subject)).has(userId)))
        out.push(g);
    }
    return out;
  }

  async function granted(client: Client, userId: string) {
    const mine = await grantsOf(client, userId);
    const courses = mine.some((g) => g.scope.kind === 'course') ? await p.index.courses() : new Map<string, string>();
    return roleFromGrants(mine, (courseId) => [...courses].filter(([, c]) => c === courseId).map(([pool]) => pool));
  }

  /** The admin grants covering `poolId`. */
  async function adminsOf(poolId: string): Promise<Grant[]> {
    const admins = (await grants()).filter((g) => g.role === 'admin');
    const courseOf = admins.some((g) => g.scope.kind === 'course') ? (await p.index.courses()).get(poolId) : undefined;
    return admins.filter((g) => covers(g.scope, poolId, courseOf));
  }

  return {
    ...env,
    async roleOf(client, userId) {
      const role = await env.roleOf(client, userId);
      if (role === 'admin') return role;
      const mine = await granted(client, userId);
      // A viewer from the environment given an admin role somewhere is an admin there.
      if (mine.role === 'admin') return 'admin';
      return role === 'viewer' ? role : mine.role;
    },
    async scopeOf(client, userId): Promise<Scope> {
      const role = await env.roleOf(client, userId);
      if (role === 'admin') return EVERY_POOL;
      const mine = await granted(client, userId);
      if (role === 'viewer' && mine.role !== 'admin') return EVERY_POOL;
      return mine.scope;
    },
    async approversOf(client, poolId) {
      const out = new Set<string>();
      for (const g of await adminsOf(poolId)) {
        if (!isGroupId(g.subject)) out.add(g.subject);
        else for (const id of await p.lookups.members(client, g.subject)) out.add(id);
      }
      if (out.size > 0) return [...out];
      return env.adminRecipients ? env.adminRecipients(client) : [...(env.adminUsers?.() ?? [])];
    },
    async whoToAskFor(poolId) {
      try {
        const mentions = [...new Set((await adminsOf(poolId)).map((g) => g.subject))].map(subjectMention);
        if (mentions.length > 0) return mentionList(mentions);
      } catch (error) {
        p.logger.warn('roles: could not read who administers a pool', { poolId, error: String(error) });
      }
      return env.whoToAsk();
    },
    async isOwner(client, userId) {
      return (await env.roleOf(client, userId)) === 'admin';
    },
    forget() {
      cached = undefined;
    },
  };
}
