/**
 * The progress the daily pass recorded (docs/progress.md), for the views that show it beside what the
 * licensing service answered: the pool's licenses, one license. Without records, or when they do not
 * answer, the view shows no progress rather than fail.
 */

import type { AppDeps } from '../../kernel/slack/deps.js';
import { DEFAULT_PROGRESS_THRESHOLDS, type LicenseProgress, type ProgressThresholds } from '../domain/progress.js';
import { progressOf } from '../services/progress-views.js';

export type ReadProgress = Map<string, LicenseProgress> & { thresholds: ProgressThresholds };

export async function readProgress(deps: AppDeps, licenseIds: readonly string[]): Promise<ReadProgress | undefined> {
  if (!deps.records) return undefined;
  try {
    const found = await progressOf(deps.records, licenseIds);
    return Object.assign(found, { thresholds: deps.progress?.thresholds ?? DEFAULT_PROGRESS_THRESHOLDS });
  } catch (error) {
    deps.logger.warn('could not read the recorded progress', { error: String(error) });
    return undefined;
  }
}
