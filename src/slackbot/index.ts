/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export type { SlackbotSettings } from './domain/settings.js';
export { SLACKBOT_OFF } from './domain/settings.js';
export { slackbotFeature } from './slack/feature.js';
export { createSlackbot, MCP_MAX_BODY_BYTES, MCP_PATH, type SlackbotPart } from './slack/route.js';
