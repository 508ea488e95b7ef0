/**
 * Any failure -> one plain sentence with the next step. Never a stack trace, never
 * internals. The sentence is plain text; builders escape it (a 400 quotes the server's own words).
 */
import { type Audience, errorSentence, type Subject, seconds } from '../services/error-text.js';
import { SlackBusyError } from './roles.js';

export { type Audience, CANNOT_REACH, RESTARTING, type Subject } from '../services/error-text.js';

/** Slack rate-limited the role check: the person may well have access, so say "try again", not "no". */
export function slackBusyText(retryAfterSec: number | undefined): string {
  const when = retryAfterSec === undefined ? 'in a moment' : `in about ${seconds(retryAfterSec)} s`;
  return `Slack is busy right now, so I could not check your access; nothing was changed. Please try again ${when}.`;
}

/** Any failure, Slack's rate limit on the role check included, as one sentence (services/error-text.ts). */
export function presentError(error: unknown, subject: Subject = 'other', audience: Audience = 'other'): string {
  if (error instanceof SlackBusyError) return slackBusyText(error.retryAfterSec);
  return errorSentence(error, subject, audience);
}
