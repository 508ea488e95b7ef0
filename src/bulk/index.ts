/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { createBulkJobStore, DEFAULT_TAKEOVER_MS } from './db/store.js';
export type { DraftStore } from './services/bulk.js';
export { createDraftStore } from './services/bulk.js';
export { importBulkFiles } from './services/bulk-import.js';
export type { BulkRunner } from './services/bulk-runner.js';
export { createBulkRunner } from './services/bulk-runner.js';
export { bulk } from './slack/bulk-command.js';
export { bulkFeature } from './slack/feature.js';
export { startHeldBulkJob } from './slack/held.js';
export { createBulkProgressNotices } from './slack/progress-notices.js';
