/**
 * The digest and App Home count the active holders per pool by standing and progress
 * (progress-store's standingCounts): every column that count reads, so it is read from this index
 * alone instead of from every row (docs/digest.md, Figures). The daily pass's "seen again" update
 * touches seen_at only, which is not in it.
 */
import type { AnyDb } from './columns.js';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('license_progress_standing')
    .on('license_progress')
    .columns(['active', 'pool_id', 'progress', 'completed', 'license_start', 'changed_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('license_progress_standing').execute();
}
