/**
 * Which pools a person's role covers. The owners (LICENSE_ADMINS), the roles from the environment and a
 * role given on every pool cover every pool; a role given on one course's pools or on chosen pools covers
 * those pools only (docs/roles-and-approvals.md). Every list, count and id check of a scoped person goes
 * through `inScope`; an id outside the scope is refused like any other forbidden id.
 */
export type Scope = { readonly all: true } | { readonly all: false; readonly poolIds: ReadonlySet<string> };

/** The scope of an owner, of the roles from the environment, and of every surface before roles existed. */
export const EVERY_POOL: Scope = { all: true };

export function poolsScope(poolIds: Iterable<string>): Scope {
  return { all: false, poolIds: new Set(poolIds) };
}

export function inScope(scope: Scope, poolId: string | undefined): boolean {
  if (scope.all) return true;
  return poolId !== undefined && scope.poolIds.has(poolId);
}

/** The items whose pool is in the scope, in their order. */
export function withinScope<T>(scope: Scope, items: readonly T[], poolIdOf: (item: T) => string | undefined): T[] {
  if (scope.all) return [...items];
  return items.filter((item) => inScope(scope, poolIdOf(item)));
}
