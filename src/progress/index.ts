/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { PROGRESS_NOT_READ, progressLine, standingCountsText } from './blocks/progress-text.js';
export type {
  ListedStanding,
  PoolStandingCounts,
  PoolUsageDay,
  ProgressChange,
  ProgressStore,
} from './db/store.js';
export { createProgressStore } from './db/store.js';
export type { AutoReturnSettings } from './domain/auto-return.js';
export type { LicenseProgress, ProgressStanding, ProgressThresholds } from './domain/progress.js';
export { DEFAULT_PROGRESS_THRESHOLDS, daysSince, progressSince, progressStanding } from './domain/progress.js';
export type { HomeProgress } from './domain/progress-views.js';
export { homeProgressWithin } from './domain/progress-views.js';
export { withProgressMarks } from './services/progress-marks.js';
export { createProgressPass, type ProgressPass } from './services/progress-pass.js';
export { homeProgress } from './services/progress-views.js';
export { type AutoReturnFeature, composeAutoReturn } from './slack/auto-return.js';
export { progressFeature } from './slack/feature.js';
export { readProgress } from './slack/progress.js';
