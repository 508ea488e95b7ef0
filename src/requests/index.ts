/**
 * The public face of this feature: all another feature may use of it. Everything else in this folder
 * is the feature's own (docs/architecture.md, "Features and the kernel").
 */

export { heldSeatsSentence } from './blocks/offers.js';
export {
  buildMyRequestsHomeSection,
  HOME_MAX_MY_REQUESTS,
  REQUEST_UNREADABLE_TEXT,
  requestAlreadySentence,
} from './blocks/requests.js';
export { whoOf } from './blocks/waitlist.js';
export type { CourseRequest } from './domain/requests.js';
export { UnreadableRequestError } from './domain/requests.js';
export type { SeatHandOn } from './domain/waitlist.js';
export type { FreeSeatOutcome } from './services/service.js';
