/**
 * `find @user`: the Slack member's e-mail via users.info (scope users:read.email). Slack hides it for
 * bots, for some guests, and when the scope is missing; each case gets its own sentence.
 */
import type { webApi } from '@slack/bolt';

export type ResolvedUser = { email: string } | { problem: string };

export async function resolveUserEmail(client: webApi.WebClient, userId: string): Promise<ResolvedUser> {
  try {
    const answer = await client.users.info({ user: userId });
    const email = answer.user?.profile?.email;
    const name = answer.user?.profile?.display_name || answer.user?.real_name || answer.user?.name || 'That member';
    if (email) return { email };
    return { problem: `${name} has no e-mail address I can see; try \`/licenses find their@email\` instead.` };
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null && 'data' in error ? slackErrorCode(error.data) : undefined;
    if (code === 'user_not_found') return { problem: 'I could not find that Slack member.' };
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
