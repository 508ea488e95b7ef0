/**
 * A role resolver for tests of pool admins: `scopeOne(t.deps.roles, user, pools)` makes `user` an admin
 * whose role covers only `pools` (scopeOf), and leaves everyone else as the environment says (every pool).
 * The resolver is the app's own object: the gate asks it on every request, so the change holds at once.
 */
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import type { Role, RoleResolver } from '../../src/kernel/slack/deps.js';

export function scopeOne(roles: RoleResolver, userId: string, poolIds: readonly string[], role: Role = 'admin'): void {
  const roleOf = roles.roleOf.bind(roles);
  roles.roleOf = async (client, id) => (id === userId ? role : roleOf(client, id));
  roles.scopeOf = async (_client, id) => (id === userId ? poolsScope(poolIds) : EVERY_POOL);
}
