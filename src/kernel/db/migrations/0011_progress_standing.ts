/**
 * The digest and App Home count the active holders per pool by standing and progress
 * (progress-store's standingCounts): every column that count reads, so it is read from this index
 * alone instead of from every row (docs/digest.md, Figures). The daily pass's "seen again" update
 * touches seen_at only, which is not in it.
 */
import { schemaStep } from './columns.js';

export const { up, down } = schemaStep(`
  index license_progress_standing on license_progress (active, pool_id, progress, completed, license_start, changed_at)
`);
