/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { roundWords } from './blocks/reclaim.js';
export type { AskState, ReclaimRoundSummary, ReclaimSettings } from './domain/reclaim.js';
export { roundFigures } from './domain/reclaim.js';
export { recentRounds } from './services/round-views.js';
export { reclaimFeature } from './slack/feature.js';
export { startHeldRound } from './slack/held.js';
export { reclaim } from './slack/reclaim-command.js';
export { composeReclaim, type ReclaimFeature } from './slack/start.js';
