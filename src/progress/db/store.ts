/**
 * The records of learning progress over time (docs/progress.md), one implementation for SQLite and
 * PostgreSQL: what each license was last seen at and one history row per change (licenses.ts, written
 * by the daily pass and License Desk's own changes), who holds a seat and where they stand (holders.ts),
 * and the history and each pool's seats per day they changed (history.ts). Read by the pool and license
 * views, App Home, the export, the reclaim rounds and the digest.
 */
import type { Records } from '../../kernel/db/open.js';
import { type HistoryRecords, historyRecords } from './history.js';
import { type HolderRecords, holderRecords } from './holders.js';
import { type LicenseRecords, licenseRecords } from './licenses.js';

export type { PoolSeats, PoolUsageDay, ProgressChange } from './history.js';
export type { HolderFilter, HolderListQuery, ListedStanding, PoolStandingCounts } from './holders.js';
export type { RecordOutcome } from './licenses.js';

export interface ProgressStore extends LicenseRecords, HolderRecords, HistoryRecords {}

export function createProgressStore(records: Pick<Records, 'db' | 'dialect'>): ProgressStore {
  return {
    ...licenseRecords(records.db),
    ...holderRecords(records.db, records.dialect),
    ...historyRecords(records.db),
  };
}
