/**
 * The e-mail Slack shows for the member asking (users.info, scope users:read.email), asked fresh on
 * every command and click: it is what finds their licenses and what proves a license is theirs.
 */
import type { webApi } from '@slack/bolt';
import { slackRateLimit } from '../../kernel/slack/roles.js';

export type MemberEmail = { email: string } | { problem: string };

export async function memberEmail(client: webApi.WebClient, userId: string): Promise<MemberEmail> {
  try {
    const { user } = await client.users.info({ user: userId });
    const email = user?.profile?.email?.trim();
    if (email) return { email };
    return {
      problem: 'Slack shows no e-mail address for you, so I cannot find your licenses. Please ask a license admin.',
    };
  } catch (error) {
    if (slackRateLimit(error)) return { problem: 'Slack is busy right now; please try again in a moment.' };
    return { problem: 'Slack did not tell me your e-mail address right now; please try again in a moment.' };
  }
}
