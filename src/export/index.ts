/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { withSandboxComment } from './blocks/export-comment.js';
export { exportCsv } from './slack/export-command.js';
export { sendExportOrSay, uploadToDm } from './slack/export-file.js';
export { exportFeature } from './slack/feature.js';
