/**
 * Roles kept in the database as the composition root builds them (docs/roles-and-approvals.md): the
 * environment's resolver (kernel/slack/roles.ts) and, with records, the grants over it, sharing its
 * cached Slack answers. `resolver` goes where deps.roles is built; `admin` is what `/licenses roles` uses.
 */
import type { Records } from '../../kernel/db/open.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { RoleResolver } from '../../kernel/slack/deps.js';
import { createRoleResolver, createSlackLookups, type RoleResolverOptions } from '../../kernel/slack/roles.js';
import { createGrantStore } from '../db/grants.js';
import { createGrantService, type GrantService } from '../services/grants.js';
import { createPoolIndex, type PoolIndex } from '../services/pool-index.js';
import { createRolesResolver, type RolesResolver } from './resolver.js';

/** What `/licenses roles` works with: the resolver (who the owners are), the grants, the pool list. */
export interface RolesAdmin {
  resolver: RolesResolver;
  service: GrantService;
  index: PoolIndex;
  /** The owners as LICENSE_ADMINS lists them (none: the workspace's admins and owners). */
  owners(): { users: readonly string[]; groups: readonly string[] };
}

export interface ComposedRoles {
  resolver: RoleResolver;
  /** Without records: none (only the environment's roles). */
  admin: RolesAdmin | undefined;
}

/** The admin side of each resolver composeRoles built: how `/licenses roles` finds it from deps.roles. */
const ADMINS = new WeakMap<RoleResolver, RolesAdmin>();

/** The grants behind `roles` (deps.roles), or none: without records, or a resolver built elsewhere (tests). */
export function rolesAdminOf(roles: RoleResolver): RolesAdmin | undefined {
  return ADMINS.get(roles);
}

export function composeRoles(p: {
  options: RoleResolverOptions;
  records: Records | undefined;
  licensing: Pick<LicensingClient, 'pools'>;
  logger: Logger;
  now: () => Date;
  /** Tests: how long the grants and the pool list are kept (default GRANTS_TTL_MS, POOL_INDEX_TTL_MS). */
  ttl?: { grantsMs?: number; poolsMs?: number };
}): ComposedRoles {
  const lookups = createSlackLookups(p.options);
  const env = createRoleResolver(p.options, lookups);
  if (!p.records) return { resolver: env, admin: undefined };
  const logger = p.logger;
  const store = createGrantStore(p.records);
  const index = createPoolIndex({
    licensing: p.licensing,
    logger,
    ...(p.ttl?.poolsMs !== undefined ? { ttlMs: p.ttl.poolsMs } : {}),
  });
  const resolver = createRolesResolver({
    env,
    lookups,
    store,
    index,
    logger,
    ...(p.ttl?.grantsMs !== undefined ? { ttlMs: p.ttl.grantsMs } : {}),
  });
  const service = createGrantService({ store, index, now: p.now, changed: () => resolver.forget() });
  const owners = () => ({ users: env.adminUsers?.() ?? [], groups: env.adminGroups?.() ?? [] });
  const admin: RolesAdmin = { resolver, service, index, owners };
  ADMINS.set(resolver, admin);
  return { resolver, admin };
}
