/** What the App Home dashboard shows: one snapshot of pools, licenses ending soon and recent changes. */
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { License, Pool } from '../../kernel/domain/types.js';

export interface DashboardData {
  pools: Pool[];
  /** Active licenses ending within 14 days, soonest first; undefined when the scan was over budget. */
  ending: License[] | undefined;
  recent: AuditEntry[];
  asOf: Date;
}
