/**
 * Any failure -> one plain sentence with the next step (issue 4, "Errors"). Never a stack trace, never
 * internals. The sentence is plain text; builders escape it (a 400 quotes the server's own words).
 */
import { BadRequestError, isLicensingError, QueueFullError, RateLimitedError } from '../licensing/errors.js';

/** What the request was about, so a 404 can say what does not exist. */
export type Subject = 'pool' | 'license' | 'student' | 'other';

const NOT_FOUND: Record<Subject, string> = {
  pool: 'There is no pool with that id; `/licenses pools` lists your pools.',
  license: 'There is no license with that id; `/licenses list all` lists every license.',
  student: 'There is no such student; check the e-mail address.',
  other: 'The licensing service has no such pool or license; check the id and try again.',
};

const NOT_ANSWERING = 'The licensing service is not answering; nothing was changed. Please try again in a minute.';

const MID_WAY =
  'The licensing service stopped answering mid-way; the change may or may not have been made, so check before trying again.';

// Several License Desk processes share one licensing rate budget through Redis; without it none may send.
const BUDGET_UNAVAILABLE =
  "License Desk can't reach its shared rate budget (Redis), so nothing was sent to the licensing service and nothing was changed. Please try again in a minute, and tell whoever runs License Desk if it keeps happening.";

const seconds = (n: number): number => Math.max(1, Math.ceil(n));

export function presentError(error: unknown, subject: Subject = 'other'): string {
  if (!isLicensingError(error)) {
    return 'Something went wrong inside License Desk; nothing was changed. Please try again, and tell whoever runs License Desk if it keeps happening.';
  }
  // The subclasses carry the numbers; `kind` alone does not narrow an abstract base class.
  if (error instanceof RateLimitedError || error instanceof QueueFullError) {
    const wait = error instanceof RateLimitedError ? error.retryAfterSec : error.retryInSec;
    return `The licensing service is busy; please try again in about ${seconds(wait)} s.`;
  }
  if (error instanceof BadRequestError) {
    return `The licensing service refused this: ${error.serverMessage.replace(/[.\s]+$/, '')}.`;
  }
  switch (error.kind) {
    case 'unauthorized':
      return 'The licensing API token is no longer valid: generate a new one in the license web interface and update LICENSING_API_TOKEN.';
    case 'forbidden':
      return 'The licensing API token lacks permission for this; generate a token with that permission in the license web interface and update LICENSING_API_TOKEN.';
    case 'not-found':
      return NOT_FOUND[subject];
    case 'budget-unavailable':
      return BUDGET_UNAVAILABLE;
    case 'rate-limited':
    case 'queue-full':
    case 'bad-request':
      return 'The licensing service refused this request; please try again in a minute.';
    case 'invalid-response':
      // A write can be applied although its answer was unreadable (the client marks it outcomeUnknown).
      if (error.outcomeUnknown) return MID_WAY;
      return 'The licensing service answered something unexpected; nothing was changed. Please try again later, and tell whoever runs License Desk if it keeps happening.';
    case 'server':
    case 'timeout':
    case 'connection':
      return error.outcomeUnknown ? MID_WAY : NOT_ANSWERING;
  }
}
