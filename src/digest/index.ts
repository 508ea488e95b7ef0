/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export type { DashboardData } from './domain/dashboard.js';
export { dashboardWithin } from './domain/dashboard.js';
export type { Forecast } from './domain/forecast.js';
export { FORECAST_WINDOW_DAYS, forecastPool } from './domain/forecast.js';
export type { Dashboard, RefreshResult } from './services/dashboard.js';
export { createDashboard } from './services/dashboard.js';
export type { DigestSchedule } from './services/digest-schedule.js';
export { createDigestFeature, type DigestFeature } from './slack/digest.js';
export { digest } from './slack/digest-command.js';
export { digestFeature } from './slack/feature.js';
