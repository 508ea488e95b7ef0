/**
 * The assign form opened by "Free a seat…" on a course request's card carries the request's id
 * (blocks/values.ts `requestId`): its write goes through the request service (`freeSeat`), which
 * moves the request to 'assigning' with the write's intent before anything is sent, so "Add to the
 * waitlist", Deny and Cancel are refused meanwhile and the requester is told once, through the
 * outbox. The write's own outcome is worded as the plain form words it.
 */
import type { Outcome } from '../../../kernel/blocks/outcome.js';
import { type CourseRequest, type FreeSeatOutcome, requestAlreadySentence } from '../../../requests/index.js';

const NO_REQUEST: Outcome = { tone: 'refused', headline: 'That course request no longer exists; nothing was changed.' };

/** The request no longer waits for a seat: nothing was sent, and the admin hears where it stands. */
export function notWaiting(request: CourseRequest | undefined): Outcome {
  if (!request) return NO_REQUEST;
  return { tone: 'refused', headline: `${requestAlreadySentence(request)} Nothing was changed.` };
}

/** Why nothing was written for the request, or undefined when the write was made. */
export function seatRefusal(outcome: FreeSeatOutcome): Outcome | undefined {
  if (outcome.kind === 'not-found') return NO_REQUEST;
  if (outcome.kind === 'not-waiting') return notWaiting(outcome.request);
  return undefined;
}
