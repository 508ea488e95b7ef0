/**
 * The progress records' store moved to the feature's db layer (src/progress/db/store.ts); this name
 * stays for the callers that still import it here.
 */
export type {
  HolderFilter,
  HolderListQuery,
  ListedStanding,
  PoolSeats,
  PoolStandingCounts,
  PoolUsageDay,
  ProgressChange,
  ProgressStore,
  RecordOutcome,
} from '../db/store.js';
export { createProgressStore } from '../db/store.js';
