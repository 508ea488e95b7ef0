/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { buildMyLicensesHomeSection, HOME_MAX_MY_LICENSES } from './blocks/learners.js';
export type { LearnerSettings, MineOutcome } from './domain/learners.js';
export { LEARNER_DEFAULTS, LEARNER_NOTICE_KINDS, learnerSettings } from './domain/learners.js';
export { myLicenses, recordedLicenses } from './services/mine.js';
export { learnersFeature } from './slack/feature.js';
export { mine } from './slack/mine-command.js';
export { composeLearners, type LearnersFeature } from './slack/start.js';
