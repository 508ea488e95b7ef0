/**
 * Why a recycle confirmation, a Retry assign or an end-date change sent nothing, in words for the
 * person (escaped mrkdwn, ending in what to do next; the audit detail is the use case's). Each
 * refusal comes from a rule applied to fresh reads when the form or button came back.
 */

import { studentWords } from '../../kernel/blocks/change-words.js';
import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { Outcome } from '../../kernel/blocks/outcome.js';
import { dayText } from '../../kernel/domain/end-date.js';
import type { EndDateRefusal, NewcomerProblem, RecycleRefusal, RetryRefusal } from '../domain/change-refusal.js';
import { endDateBlockerText } from './extend-modal.js';

const NOTHING = 'Nothing was changed.';
const code = (id: string) => `\`${escapeMrkdwn(id)}\``;

function newcomerText(p: NewcomerProblem, email: string): string {
  const who = escapeTruncated(email, 254);
  switch (p.kind) {
    case 'email':
      return `${who} is not an e-mail address, so no license can go to it.`;
    case 'domain':
      return `This pool is transferable: its licenses can only go to addresses at ${escapeMrkdwn(p.allowed.join(', '))}, and ${who} is not one.`;
    case 'end-date':
      if (p.problem === 'past') return 'The end date is in the past.';
      if (p.problem === 'after-pool-end') return `The end date is after the pool ends (${dayText(p.poolEnd)}).`;
      return 'The end date is before the pool starts.';
    case 'enrolled':
      return `${who} already holds an active license for this course (license ${code(p.license.id)}, pool ${code(p.license.poolId)}).`;
  }
}

/** The sentence and the next step for a refused recycle confirmation. */
export function recycleRefusalOutcome(
  r: RecycleRefusal,
  poolId: string,
  email: string,
  licenseId: string | undefined,
): Outcome {
  const pool = code(poolId);
  const license = licenseId ? `License ${code(licenseId)}` : 'The license chosen';
  const again = `Please start again (\`/licenses assign ${escapeMrkdwn(poolId)}\`) to confirm afresh.`;
  const refused = (headline: string, next = again): Outcome => ({
    tone: 'refused',
    headline: `${headline} ${NOTHING}`,
    details: [next],
  });
  switch (r.kind) {
    case 'pool-ended':
      return refused(`Pool ${pool} has ended, so it has no seat to give.`, '`/licenses pools` lists the running ones.');
    case 'pool-not-full':
      return refused(
        `Pool ${pool} has ${r.available} free seat${r.available === 1 ? '' : 's'}, so no license needs to end.`,
        `Assign without freeing a seat: \`/licenses assign ${escapeMrkdwn(poolId)}\`.`,
      );
    case 'pool-not-transferable':
      return refused(
        `Pool ${pool} is not transferable: a license of it never gives its seat back, so none can be ended to free one.`,
        '`/licenses pools` shows which pools have free seats.',
      );
    case 'license-other-pool':
      return refused(`${license} is not a license of pool ${pool} (it belongs to pool ${code(r.licensePool)}).`);
    case 'license-inactive':
    case 'license-expired':
      return refused(`${license} is no longer an active license of pool ${pool}.`);
    case 'license-not-revokable':
      return refused(`${license} cannot be revoked, so its seat cannot be freed.`);
    case 'not-the-pick': {
      const was = r.named ? `license ${code(r.named)}` : 'the license it named';
      const now = r.pick
        ? `The service would now end license ${code(r.pick.id)} of ${studentWords(r.pick.student)} instead.`
        : `Pool ${pool} has no active license to end any more.`;
      return {
        tone: 'refused',
        headline: `Things changed since the confirmation: ${was} is no longer the one that would end. ${NOTHING}`,
        details: [now, again],
      };
    }
    default:
      return refused(newcomerText(r, email), 'Please start again with `/licenses assign`.');
  }
}

/** The sentence and the next step for a refused Retry assign. */
export function retryRefusalOutcome(r: RetryRefusal, poolId: string, email: string): Outcome {
  const pool = code(poolId);
  const refused = (headline: string, next: string): Outcome => ({
    tone: 'refused',
    headline: `${headline} ${NOTHING}`,
    details: [next],
  });
  switch (r.kind) {
    case 'not-freed':
      return refused(
        r.license.poolId === poolId
          ? `License ${code(r.license.id)} is still active, so no seat of pool ${pool} was freed for this retry.`
          : `License ${code(r.license.id)} is not a license of pool ${pool}, so it freed no seat there.`,
        `Start again with \`/licenses assign ${escapeMrkdwn(poolId)}\`.`,
      );
    case 'pool-ended':
      return refused(`Pool ${pool} has ended, so it has no seat to give.`, '`/licenses pools` lists the running ones.');
    case 'seat-taken':
      return refused(
        `Pool ${pool} has no free seat any more: the freed seat was taken meanwhile.`,
        `Start again with \`/licenses assign ${escapeMrkdwn(poolId)}\` to free another one.`,
      );
    default:
      return refused(newcomerText(r, email), 'Please start again with `/licenses assign`.');
  }
}

/** The sentence and the next step for a refused change of end date. */
export function endDateRefusalOutcome(refusal: EndDateRefusal, licenseId: string): Outcome {
  const id = `\`${escapeMrkdwn(licenseId)}\``;
  const why =
    refusal.kind === 'after-pool-end'
      ? `that day is after the pool ends (${dayText(refusal.poolEnd)})`
      : refusal.kind === 'unchanged'
        ? 'the license already ends on that day'
        : endDateBlockerText(refusal.kind);
  return {
    tone: 'refused',
    headline: `The end date of license ${id} can't be changed, because ${why}. Nothing was changed.`,
    details: [`\`/licenses show ${escapeMrkdwn(licenseId)}\` shows it as it is now.`],
  };
}
