/**
 * `find @user`: the Slack member's e-mail via users.info (scope users:read.email), and their name as
 * Slack shows it (`profile.real_name`, else `profile.display_name`), which an assign sends as the
 * student's name. Slack hides the e-mail for bots, for some guests, and when the scope is missing;
 * each case gets its own sentence, and so does a 429 (Slack busy: try again).
 */
import type { webApi } from '@slack/bolt';
import { slackRateLimit } from './roles.js';

/** `name`: absent when the member's profile has neither a real nor a display name. */
export type ResolvedUser = { email: string; name?: string } | { problem: string };

/** The member's name as Slack shows it: the profile's real name, else its display name. */
export function slackNameOf(profile: { real_name?: string; display_name?: string } | undefined): string | undefined {
  const name = profile?.real_name?.trim() || profile?.display_name?.trim();
  return name ? Array.from(name).slice(0, 200).join('') : undefined;
}

export async function resolveUserEmail(client: webApi.WebClient, userId: string): Promise<ResolvedUser> {
  try {
    const answer = await client.users.info({ user: userId });
    const email = answer.user?.profile?.email;
    const name = answer.user?.profile?.display_name || answer.user?.real_name || answer.user?.name || 'That member';
    if (email) {
      const slackName = slackNameOf(answer.user?.profile);
      return slackName ? { email, name: slackName } : { email };
    }
    return { problem: `${name} has no e-mail address I can see; try \`/licenses find their@email\` instead.` };
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'data' in error ? slackErrorCode(error.data) : undefined;
    if (code === 'user_not_found') return { problem: 'I could not find that Slack member.' };
    const limited = slackRateLimit(error);
    if (limited) {
      const when =
        limited.retryAfterSec === undefined
          ? 'in a moment'
          : `in about ${Math.max(1, Math.ceil(limited.retryAfterSec))} s`;
      return {
        problem: `Slack is busy right now, so I could not read that member's e-mail; please try again ${when}, or give an e-mail instead.`,
      };
    }
    if (code === 'missing_scope') {
      return {
        problem:
          'Slack does not let License Desk read e-mail addresses (scope users:read.email); give an e-mail instead.',
      };
    }
    return { problem: 'Slack did not tell me who that is right now; please try again, or give an e-mail instead.' };
  }
}

function slackErrorCode(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  return typeof data.error === 'string' ? data.error : undefined;
}

/**
 * Whose e-mail this is in Slack (users.lookupByEmail, scope users:read.email), for an e-mail typed in
 * the assign form: a member, with their Slack name when their profile has one; nobody (Slack said
 * `users_not_found`, or the account is deactivated or a bot); or `unknown` when Slack could not say
 * now (busy, a missing scope, no answer).
 */
export type MemberByEmail = { kind: 'member'; name?: string } | { kind: 'not-member' } | { kind: 'unknown' };

export async function memberByEmail(client: webApi.WebClient, email: string): Promise<MemberByEmail> {
  try {
    const { user } = await client.users.lookupByEmail({ email });
    if (!user || user.deleted || user.is_bot) return { kind: 'not-member' };
    const name = slackNameOf(user.profile);
    return name ? { kind: 'member', name } : { kind: 'member' };
  } catch (error) {
    const code = slackErrorCode((error as { data?: unknown }).data);
    return code === 'users_not_found' ? { kind: 'not-member' } : { kind: 'unknown' };
  }
}

/**
 * The Slack user id of the member whose e-mail this is (users.lookupByEmail, scope users:read.email);
 * undefined when Slack has no such member (users_not_found), or the account is deactivated or a bot.
 * Any other failure throws: "not in Slack" is said only when Slack said so.
 */
export async function slackUserByEmail(client: webApi.WebClient, email: string): Promise<string | undefined> {
  try {
    const { user } = await client.users.lookupByEmail({ email });
    if (!user?.id || user.deleted || user.is_bot) return undefined;
    return user.id;
  } catch (error) {
    if (slackErrorCode((error as { data?: unknown }).data) === 'users_not_found') return undefined;
    throw error;
  }
}
