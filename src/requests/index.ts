/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { heldSeatsSentence } from './blocks/offers.js';
export { createRefusalText } from './blocks/request-outcome.js';
export {
  buildMyRequestsHomeSection,
  HOME_MAX_MY_REQUESTS,
  REQUEST_UNREADABLE_TEXT,
  reasonInput,
  requestAlreadySentence,
} from './blocks/requests.js';
export { whoOf } from './blocks/waitlist.js';
export { unreadableRequests } from './db/request-store.js';
export type { CourseRequest, DecideOutcome, RequestLimits, RequestTimers } from './domain/requests.js';
export {
  backToPending,
  cutReason,
  MAX_REASON,
  MAX_REASON_RAW,
  reasonProblem,
  requestTimers,
  UnreadableRequestError,
} from './domain/requests.js';
export type { SeatHandOn } from './domain/waitlist.js';
export { importRequestFiles } from './services/import.js';
export type { FreeSeatOutcome } from './services/service.js';
export type { RequestService, RequestServiceOptions } from './services/types.js';
export { requestsFeature } from './slack/feature.js';
export { nowhereToGo } from './slack/form.js';
export { request, requests } from './slack/request-command.js';
export type { RequestsOptions } from './slack/start.js';
export { composeRequests, type RequestsFeature, type WaitlistSetup } from './slack/start.js';
export { withWaitlist } from './slack/waitlist/home.js';
export { waitlist } from './slack/waitlist/waitlist-command.js';
