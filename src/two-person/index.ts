/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export type { MassChange, MassChangeFigures, TwoPersonSettings } from './domain/two-person.js';
export { TWO_PERSON_DEFAULTS, twoPersonSettings } from './domain/two-person.js';
export type { MassChangeStarter, TwoPerson } from './services/two-person.js';
export { twoPersonFeature } from './slack/feature.js';
export { holdForSecondAdmin } from './slack/hold.js';
export { soleDeciderWarning, withSoleDeciderLine } from './slack/sole-decider.js';
export { composeTwoPerson, type TwoPersonFeature } from './slack/start.js';
