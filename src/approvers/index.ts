/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { withLine } from './blocks/approvers.js';
export type { CardTo, Delegation, Route, WaitingItem } from './domain/delegation.js';
export { approversFeature } from './slack/feature.js';
export { withAwaySection } from './slack/home.js';
export type { RefreshHome } from './slack/listeners.js';
export { type CardTarget, cardTargets, decidesFor, routeFor } from './slack/route.js';
export {
  APPROVER_DEFAULTS,
  type ApproverSettings,
  type ApproversFeature,
  type ApproversOptions,
  composeApprovers,
} from './slack/start.js';
