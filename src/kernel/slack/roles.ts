/**
 * Who may do what. LICENSE_ADMINS (user or user-group ids) may change licenses; LICENSE_VIEWERS (ids,
 * or '*' for every full member) may look. Without LICENSE_ADMINS, workspace admins and owners are the
 * admins. Checked on every request; Slack answers are cached briefly so a check costs ~nothing:
 * usergroups.users.list is Tier 2 (20+/min), so one cached list per group serves every request.
 */
import type { webApi } from '@slack/bolt';
import type { Logger } from '../licensing/types.js';
import type { RoleResolver } from './deps.js';

export interface RoleResolverOptions {
  admins: string[];
  viewers: string[] | '*';
  /** REQUESTERS: who may request a course: '*' (default) every full member, ids, or [] for nobody. */
  requesters?: string[] | '*';
  /** users.info cache; default 30 s (a demoted admin loses access within it). */
  userTtlMs?: number;
  /** usergroups.users.list cache; default 60 s. */
  groupTtlMs?: number;
  now?: () => number;
  logger?: Logger;
}

interface SlackUser {
  isAdmin: boolean;
  /** A full member: not a guest, not a bot, not deactivated. */
  isMember: boolean;
}

interface Cached<T> {
  at: number;
  value: Promise<T>;
}

const isGroup = (id: string) => id.startsWith('S');

/** Whom to ask when LICENSE_ADMINS is unset: the workspace's admins and owners are the license admins. */
const WORKSPACE_ADMINS = "one of this workspace's admins or owners";

/**
 * Slack rate-limited a call the role check needs (HTTP 429): the role is unknown, not "none". The
 * person is told Slack is busy and to try again, never that they have no access; nothing is cached.
 */
export class SlackBusyError extends Error {
  override readonly name = 'SlackBusyError';
  constructor(
    /** Slack's Retry-After, when it sent one. */
    readonly retryAfterSec: number | undefined,
    what: string,
  ) {
    super(`Slack rate-limited ${what}`);
  }
}

/** The Web API client's error for a 429 when rejectRateLimitedCalls is set (src/app/app.ts). */
export function slackRateLimit(error: unknown): { retryAfterSec: number | undefined } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; retryAfter?: unknown; data?: { error?: unknown } };
  if (e.code !== 'slack_webapi_rate_limited_error' && e.data?.error !== 'ratelimited') return undefined;
  const after = typeof e.retryAfter === 'number' && Number.isFinite(e.retryAfter) ? e.retryAfter : undefined;
  return { retryAfterSec: after };
}

/**
 * `lookups`: the cached Slack answers to share with the roles kept in the database (src/roles/), so a
 * group is listed once for both; default its own.
 */
export function createRoleResolver(
  options: RoleResolverOptions,
  lookups: SlackLookups = createSlackLookups(options),
): RoleResolver {
  const { user, members, listed } = lookups;
  return {
    async roleOf(client, userId) {
      if (options.admins.length > 0) {
        if (await listed(client, options.admins, userId)) return 'admin';
      } else if ((await user(client, userId))?.isAdmin) {
        return 'admin';
      }
      if (options.viewers === '*') return (await user(client, userId))?.isMember ? 'viewer' : 'none';
      return (await listed(client, options.viewers, userId)) ? 'viewer' : 'none';
    },
    async mayRequest(client, userId) {
      const requesters = options.requesters ?? '*';
      if (requesters !== '*' && requesters.length === 0) return 'off';
      // Whoever asks must be a full member first, whatever the list says: guests, bots and
      // deactivated accounts never request.
      if (!(await user(client, userId))?.isMember) return 'not-member';
      if (requesters === '*') return 'yes';
      return (await listed(client, requesters, userId)) ? 'yes' : 'not-listed';
    },
    async isMember(client, userId) {
      return (await user(client, userId))?.isMember === true;
    },
    adminUsers() {
      return options.admins.filter((id) => /^[UW]/.test(id));
    },
    adminGroups() {
      return options.admins.filter(isGroup);
    },
    async adminRecipients(client) {
      const out = new Set(options.admins.filter((id) => /^[UW]/.test(id)));
      for (const group of options.admins.filter(isGroup)) {
        // A group Slack cannot list now is skipped (and logged); a rate limit too: the others still hear.
        try {
          for (const id of await members(client, group)) out.add(id);
        } catch {
          options.logger?.warn('could not expand a LICENSE_ADMINS user group for a message', { group });
        }
      }
      return [...out];
    },
    whoToAsk() {
      // Without LICENSE_ADMINS the license admins are the workspace's admins and owners: say so.
      if (options.admins.length === 0) return WORKSPACE_ADMINS;
      const mentions = options.admins.slice(0, 5).map((id) => (isGroup(id) ? `<!subteam^${id}>` : `<@${id}>`));
      if (mentions.length === 1) return mentions[0] ?? WORKSPACE_ADMINS;
      return `${mentions.slice(0, -1).join(', ')} or ${mentions.at(-1)}`;
    },
  };
}

/**
 * What Slack says about a person (users.info) and a user group's members (usergroups.users.list),
 * cached briefly. Fail closed: if Slack cannot tell us, the person is not let in, and the log says why.
 * A rate limit is no answer at all: it is thrown (SlackBusyError) so the person hears "try again", not
 * "no access".
 */
export function createSlackLookups(options: RoleResolverOptions) {
  const now = options.now ?? Date.now;
  const userTtl = options.userTtlMs ?? 30_000;
  const groupTtl = options.groupTtlMs ?? 60_000;
  const users = new Map<string, Cached<SlackUser | undefined>>();
  const groups = new Map<string, Cached<Set<string>>>();

  // Concurrent checks share one in-flight call; failures are not cached, so the next request retries.
  function cached<T>(map: Map<string, Cached<T>>, key: string, ttl: number, load: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && now() - hit.at < ttl) return hit.value;
    const value = load();
    map.set(key, { at: now(), value });
    value.catch(() => map.delete(key));
    return value;
  }

  async function safely<T>(what: string, fallback: T, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const limited = slackRateLimit(error);
      if (limited) {
        options.logger?.warn('role check: Slack is rate limiting; role unknown', { what, ...limited });
        throw new SlackBusyError(limited.retryAfterSec, what);
      }
      options.logger?.warn('role check failed; treating as no access', { what, error });
      return fallback;
    }
  }

  const user = (client: webApi.WebClient, userId: string) =>
    safely('users.info', undefined, () =>
      cached(users, userId, userTtl, async (): Promise<SlackUser | undefined> => {
        const u = (await client.users.info({ user: userId })).user;
        if (!u) return undefined;
        return {
          isAdmin: Boolean(u.is_admin || u.is_owner || u.is_primary_owner) && !u.deleted,
          isMember: !u.deleted && !u.is_bot && !u.is_restricted && !u.is_ultra_restricted,
        };
      }),
    );

  const members = (client: webApi.WebClient, groupId: string) =>
    safely(`usergroups.users.list ${groupId}`, new Set<string>(), () =>
      cached(groups, groupId, groupTtl, async () => {
        const res = await client.usergroups.users.list({ usergroup: groupId });
        return new Set(res.users ?? []);
      }),
    );

  async function listed(client: webApi.WebClient, ids: string[], userId: string): Promise<boolean> {
    if (ids.includes(userId)) return true;
    for (const id of ids.filter(isGroup)) {
      if ((await members(client, id)).has(userId)) return true;
    }
    return false;
  }

  return { user, members, listed };
}

/** The cached users.info and usergroups.users.list answers (createSlackLookups). */
export type SlackLookups = ReturnType<typeof createSlackLookups>;
