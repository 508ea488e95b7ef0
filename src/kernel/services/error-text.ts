/**
 * A licensing failure -> one plain sentence with the next step, for the person and for the audit
 * entry. Never a stack trace, never internals; builders escape it (a 400 quotes the server's own words).
 */

import { DISK_FULL_SENTENCE, isDiskFull } from '../db/disk-full.js';
import type {
  BadRequestError,
  ConnectionError,
  ForbiddenError,
  InvalidResponseError,
  NotFoundError,
  QueueFullError,
  RateBudgetUnavailableError,
  RateLimitedError,
  ServerError,
  StoppedError,
  TimeoutError,
  UnauthorizedError,
} from '../licensing/errors.js';
import { isLicensingError } from '../licensing/errors.js';
import { NOT_RECORDED_SENTENCE, WriteNotRecordedError } from './writes/not-recorded.js';

/** Every concrete licensing error: its `kind` narrows to the class, so each kind has one arm below. */
type AnyLicensingError =
  | BadRequestError
  | UnauthorizedError
  | ForbiddenError
  | NotFoundError
  | RateLimitedError
  | ServerError
  | TimeoutError
  | ConnectionError
  | InvalidResponseError
  | QueueFullError
  | StoppedError
  | RateBudgetUnavailableError;

/** What the request was about, so a 404 can say what does not exist. */
export type Subject = 'pool' | 'license' | 'student' | 'other';

/**
 * Who reads the sentence. Only license admins are told which setting to fix (a token refused or
 * lacking permission); everyone else hears that License Desk can't reach the licensing service.
 */
export type Audience = 'admin' | 'other';

/** For someone who is not a license admin, when nobody has been told yet (see token-alarm.ts). */
export const CANNOT_REACH =
  "License Desk can't reach the licensing service right now, so nothing can be shown or changed. Please let a license admin know.";

const NOT_FOUND: Record<Subject, string> = {
  pool: 'There is no pool with that id; `/licenses pools` lists your pools.',
  license: 'There is no license with that id; `/licenses list all` lists every license.',
  student: 'There is no such student; check the e-mail address.',
  other: 'The licensing service has no such pool or license; check the id and try again.',
};

const NOT_ANSWERING = 'The licensing service is not answering; nothing was changed. Please try again in a minute.';

const MID_WAY =
  'The licensing service stopped answering mid-way; the change may or may not have been made, so check before trying again.';

/** What a person is told when License Desk is stopping (SIGTERM): new work, and reads cut short. */
export const RESTARTING = 'License Desk is restarting; try again in a minute.';

// Several License Desk processes share one licensing rate budget through Redis; without it none may send.
const BUDGET_UNAVAILABLE =
  "License Desk can't reach its shared rate budget (Redis), so nothing was sent to the licensing service and nothing was changed. Please try again in a minute, and tell whoever runs License Desk if it keeps happening.";

export const seconds = (n: number): number => Math.max(1, Math.ceil(n));

const busy = (wait: number) => `The licensing service is busy; please try again in about ${seconds(wait)} s.`;

export function errorSentence(error: unknown, subject: Subject = 'other', audience: Audience = 'other'): string {
  // A full disk is said as such, whether it stopped a write's intent or anything else the database holds.
  if (isDiskFull(error)) return DISK_FULL_SENTENCE;
  if (error instanceof WriteNotRecordedError) return NOT_RECORDED_SENTENCE;
  if (!isLicensingError(error)) {
    return 'Something went wrong inside License Desk; nothing was changed. Please try again, and tell whoever runs License Desk if it keeps happening.';
  }
  const e = error as AnyLicensingError;
  switch (e.kind) {
    case 'unauthorized':
      if (audience === 'other') return CANNOT_REACH;
      return 'The licensing API token is no longer valid: generate a new one in the license web interface and update LICENSING_API_TOKEN.';
    case 'forbidden':
      if (audience === 'other') return CANNOT_REACH;
      return 'The licensing API token lacks permission for this; generate a token with that permission in the license web interface and update LICENSING_API_TOKEN.';
    case 'not-found':
      return NOT_FOUND[subject];
    case 'budget-unavailable':
      return BUDGET_UNAVAILABLE;
    case 'rate-limited':
      return busy(e.retryAfterSec);
    case 'queue-full':
      return busy(e.retryInSec);
    case 'bad-request':
      return `The licensing service refused this: ${e.serverMessage.replace(/[.\s]+$/, '')}.`;
    case 'invalid-response':
      // A write can be applied although its answer was unreadable (the client marks it outcomeUnknown).
      if (e.outcomeUnknown) return MID_WAY;
      return 'The licensing service answered something unexpected; nothing was changed. Please try again later, and tell whoever runs License Desk if it keeps happening.';
    case 'server':
    case 'timeout':
    case 'connection':
      return e.outcomeUnknown ? MID_WAY : NOT_ANSWERING;
    case 'stopped':
      return e.outcomeUnknown
        ? 'License Desk is restarting and stopped waiting for the licensing service; the change may or may not have been made, so check in a minute before trying again.'
        : RESTARTING;
  }
}
