/** What the App Home dashboard shows: one snapshot of pools, licenses ending soon and recent changes. */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { type Scope, withinScope } from '../../kernel/domain/scope.js';
import type { License, Pool } from '../../kernel/domain/types.js';

export interface DashboardData {
  pools: Pool[];
  /** Active licenses ending within 14 days, soonest first; undefined when the scan was over budget. */
  ending: License[] | undefined;
  recent: AuditEntry[];
  asOf: Date;
}

/**
 * The snapshot as a person whose role covers `scope` sees it: the pools, the licenses ending and the
 * recent changes of their pools (a change that names no pool is not theirs). One snapshot is shared by
 * everyone; each Home narrows it.
 */
export function dashboardWithin(scope: Scope, data: DashboardData): DashboardData {
  if (scope.all) return data;
  return {
    ...data,
    pools: withinScope(scope, data.pools, (p) => p.id),
    ending: data.ending && withinScope(scope, data.ending, (l) => l.poolId),
    recent: withinScope(scope, data.recent, (e) => e.poolId),
  };
}
