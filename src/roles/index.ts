/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 *
 * Roles kept in the database (docs/roles-and-approvals.md). The resolver composeRoles builds is deps.roles:
 * features ask it through the kernel's gate (`scopeOf`, `approversOf`) and `deps.roles.whoToAskFor`.
 */
export { createGrantStore, type GrantStore } from './db/grants.js';
export type { Grant, GrantRole, GrantScope } from './domain/grants.js';
export { scopeWords } from './domain/grants.js';
export { POOL_INDEX_TTL_MS } from './services/pool-index.js';
export { rolesFeature } from './slack/feature.js';
export { createRolesResolver, GRANTS_TTL_MS, type RolesResolver } from './slack/resolver.js';
export { roles } from './slack/roles-command.js';
export { type ComposedRoles, composeRoles, type RolesAdmin, rolesAdminOf } from './slack/start.js';
