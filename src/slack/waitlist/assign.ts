/**
 * Until the course requests module provides its own, the assign of a waitlisted request: the
 * requester's Slack e-mail (users.info, scope users:read.email), the assign's rules for a newcomer
 * on fresh reads (allowed domain of a transferable pool, already enrolled, the pool's end), then the
 * assign use case. What can never succeed for this person is `skipped` (the seat goes to the next in
 * line); what may succeed later is `held` (they keep their place). The waitlist never recycles a seat.
 */
import type { webApi } from '@slack/bolt';
import { maskEmailsIn } from '../../domain/email.js';
import { isLicensingError } from '../../licensing/errors.js';
import { assignLicense, newcomerProblem } from '../../services/assign.js';
import { INTERACTIVE } from '../../services/interactive.js';
import type { WaitlistAssignOutcome, WaitlistEntry } from '../../services/waitlist.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';

async function requesterEmail(
  client: webApi.WebClient,
  userId: string,
): Promise<{ email: string; name?: string } | WaitlistAssignOutcome> {
  try {
    const { user } = await client.users.info({ user: userId });
    if (!user || user.deleted) return { kind: 'skipped', reason: 'they are no longer in the Slack workspace' };
    const email = user.profile?.email;
    if (!email) return { kind: 'skipped', reason: 'Slack shows no e-mail address for them' };
    const name = user.real_name || user.profile?.real_name;
    return name ? { email, name } : { email };
  } catch (error) {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    if (code === 'user_not_found') return { kind: 'skipped', reason: 'they are no longer in the Slack workspace' };
    return { kind: 'held', reason: `Slack did not say who they are right now (${String(code ?? error)})` };
  }
}

export function createSlackAssignWaitlisted(client: webApi.WebClient, deps: AppDeps) {
  return async (entry: WaitlistEntry): Promise<WaitlistAssignOutcome> => {
    const who = await requesterEmail(client, entry.requester);
    if ('kind' in who) return who;
    const pool = await deps.licensing.pools.get(entry.poolId, INTERACTIVE);
    const problem = await newcomerProblem(deps.licensing, pool, { email: who.email }, deps.now());
    if (problem) {
      const reason =
        problem.kind === 'domain'
          ? `their e-mail domain is not allowed in this transferable pool (allowed: ${problem.allowed.join(', ') || 'none'})`
          : problem.kind === 'enrolled'
            ? `they already hold an active license for this course (license ${problem.license.id})`
            : problem.kind === 'end-date'
              ? 'the pool has ended'
              : 'their Slack e-mail is not a valid address';
      return { kind: 'skipped', reason };
    }
    const result = await assignLicense(deps.licensing, {
      poolId: entry.poolId,
      email: who.email,
      ...(who.name ? { name: who.name } : {}),
    });
    switch (result.kind) {
      case 'done':
        return { kind: 'assigned', licenseId: result.value.id, endDate: result.value.end };
      case 'refused': {
        // The reason reaches DMs and the audit: a server message naming the student is masked.
        const text = maskEmailsIn(presentError(result.error, 'pool', 'admin'));
        // A seat taken by someone else in between: nothing is wrong with this request.
        const full =
          isLicensingError(result.error) && /no available license|no_license_available/i.test(result.error.message);
        return full ? { kind: 'held', reason: 'the seat was taken in between' } : { kind: 'skipped', reason: text };
      }
      case 'unknown':
        return {
          kind: 'held',
          reason: 'the licensing service did not answer and the read-back failed; the outcome is unknown',
        };
      default:
        return { kind: 'held', reason: presentError(result.error, 'pool', 'admin') };
    }
  };
}
