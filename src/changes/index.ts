/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */
export { buildAssignPoolSuggestions } from './blocks/assign-modal.js';
export { endDateRefusalOutcome, recycleRefusalOutcome } from './blocks/refusal-text.js';
export { buildRevokeOutcomeMessage, returnResultLine } from './blocks/revoke.js';
export { isFull, needsRecycle, poolBlocker } from './domain/assignment.js';
export type { EndDateRefusal, RecycleRefusal } from './domain/change-refusal.js';
export { defaultRecycleCandidate, recycleOrder } from './domain/recycle.js';
export type { RevokeCheck, RevokeOutcome } from './domain/revocation.js';
export type { AssignParams } from './services/assign.js';
export { assign, newcomerProblem } from './services/assign.js';
export type { ChangeContext, SeatReturnJobOptions } from './services/change-context.js';
export type { EndDateOutcome } from './services/change-end-date.js';
export { changeLicenseEndDate, checkEndDateChange } from './services/change-end-date.js';
export type { RecycleChosenOutcome, RecycleDefaultOutcome, RetryOutcome } from './services/recycle.js';
export { checkRecycle, recycleChosenSeat, recycleDefaultSeat, retryAssign } from './services/recycle.js';
export { checkRevoke, revoke } from './services/revoke.js';
export { assign as assignCommand } from './slack/assign-command.js';
export { auditRefusedCommand } from './slack/change-refusal.js';
export { extend } from './slack/extend-command.js';
export { changesFeature } from './slack/feature.js';
export { openAssignModal } from './slack/open-modal.js';
export { revokeConfirmationOf } from './slack/revoke-check.js';
export { revoke as revokeCommand } from './slack/revoke-command.js';
