/**
 * The words of the course request use cases' typed outcomes (services/requests/): why a request was
 * not taken, and why an approval's assign gave no license. Escaped mrkdwn; the caller adds its emoji.
 */

import { escapeMrkdwn } from '../../kernel/blocks/mrkdwn.js';
import type { CreateRefusal, RequestAssignOutcome, RequestRefusal } from '../domain/requests.js';

const code = (text: string) => `\`${escapeMrkdwn(text)}\``;

/** Why a new request was not taken, and what the requester can do. */
export function createRefusalText(r: CreateRefusal): string {
  switch (r.kind) {
    case 'reason':
    case 'limited':
      return escapeMrkdwn(r.problem);
    case 'needed-by':
      return `Needed by: ${escapeMrkdwn(r.problem)}`;
    case 'no-pool':
      return `There is no pool ${code(r.poolId)}. Pick a course from the list in \`/licenses request\`.`;
    case 'not-running':
      return `Pool ${code(r.poolId)} (${escapeMrkdwn(r.courseTitle)}) is not running now, so it takes no requests. Pick another pool of the course.`;
    case 'already-asked':
      return `You already asked for ${escapeMrkdwn(r.courseTitle)} (your request is ${r.status}). See \`/licenses requests\`.`;
  }
}

/** Why the approval's assign gave no license, and what the approver can do next. */
export function requestRefusalText(r: RequestRefusal): string {
  switch (r.kind) {
    case 'pool-gone':
      return `Pool ${code(r.poolId)} no longer exists, so no license was assigned. Deny the request and point the requester to another pool.`;
    case 'pool-ended':
      return `The pool ${code(r.poolId)} has ended, so no license was assigned. Deny the request, or buy seats in a new pool and ask the requester to request again.`;
    case 'full-untransferable':
      return `Pool ${code(r.poolId)} is full and cannot recycle seats, so nothing was assigned. Approve again once a seat is free (\`/licenses pool ${escapeMrkdwn(r.poolId)}\`), or deny the request.`;
    case 'email':
      return `The requester's Slack e-mail is not an address the licensing service accepts, so nothing was assigned. Assign by hand with \`/licenses assign ${escapeMrkdwn(r.poolId)}\` and their address.`;
    case 'domain': {
      const allowed = escapeMrkdwn(r.allowed.join(', ') || 'no domain yet');
      return `Pool ${code(r.poolId)} is transferable, and its licenses may only go to addresses in ${allowed}; the requester's address is elsewhere. Deny the request, or choose an untransferable pool of the course.`;
    }
    case 'end-date':
      return `The pool's end date does not allow a new license now, so nothing was assigned. Deny the request or pick another pool.`;
    case 'enrolled':
      return `The requester already holds license ${code(r.licenseId)} for this course, so nothing was assigned. Deny the request and tell them, or revoke the old license first.`;
    case 'api':
      return `The licensing service refused the assign: ${escapeMrkdwn(r.message)}. Nothing was assigned; check the pool with \`/licenses pool ${escapeMrkdwn(r.poolId)}\`, then approve again or deny.`;
  }
}

/** An approval's assign that gave no license (refused, failed, unknown) in words for the approver. */
export function requestAssignText(outcome: Exclude<RequestAssignOutcome, { kind: 'assigned' | 'full' }>): string {
  switch (outcome.kind) {
    case 'refused':
      return requestRefusalText(outcome.refusal);
    case 'failed': {
      const error = escapeMrkdwn(outcome.error);
      switch (outcome.stage) {
        case 'pool-read':
          return `I could not read pool ${code(outcome.poolId)} (${error}); nothing was assigned. Please try again in a minute.`;
        case 'rules-read':
          return `I could not check the rules for this request (${error}); nothing was assigned. Please try again in a minute.`;
        case 'write':
          return `The assign did not go through (${error}); nothing was assigned. Please approve again in a minute.`;
      }
      break;
    }
    case 'unknown':
      return 'The licensing service did not answer, so whether the license was assigned is being checked. Nothing else is needed: you and the requester get a message once it is known.';
  }
  return '';
}
