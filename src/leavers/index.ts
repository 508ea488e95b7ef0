/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export type { LeaverNotice, LeaverSettings } from './domain/leavers.js';
export { LEAVER_DEFAULTS, LEAVER_GRACE_PROBLEM, LEAVER_NOTICE_KINDS, leaverSettingsOf } from './domain/leavers.js';
export type { ReturnRun } from './services/returns.js';
export type { SweepReport } from './services/sweep.js';
export { leaversFeature } from './slack/feature.js';
export type { LeaversFeature, LeaversSetup } from './slack/start.js';
export { composeLeavers } from './slack/start.js';
