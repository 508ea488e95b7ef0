/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export type { AlertsConfig } from './domain/alerts.js';
export type { AlertService } from './services/alerts.js';
export {
  ALERT_MEMORY_KEY,
  alertMemory,
  createAlertService,
  importAlertFile,
  SANDBOX_ALERT_MEMORY_KEY,
} from './services/alerts.js';
export { createAlertPoster, tellNothingNew } from './slack/alerts.js';
export { alertsFeature } from './slack/feature.js';
