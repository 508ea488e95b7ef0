/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { auditFilesIn, importAuditFiles } from './services/audit-import.js';
export { readHistoryPage } from './services/history.js';
export { createSlackAuditLog } from './slack/audit-trail.js';
export { historyFeature } from './slack/feature.js';
export { history } from './slack/history-command.js';
