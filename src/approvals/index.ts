/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { approvals } from './slack/command.js';
export { approvalsFeature } from './slack/feature.js';
export { createRuns, type Runs } from './slack/runs.js';
