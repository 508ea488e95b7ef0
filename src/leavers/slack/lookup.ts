/** The sweep's Slack side: users.lookupByEmail (Tier 3; scope users:read.email) as a typed answer. */
import type { webApi } from '@slack/bolt';
import { slackRateLimit } from '../../kernel/slack/roles.js';
import type { SlackLookup } from '../services/sweep.js';

/** When a 429 carries no Retry-After: a minute, Tier 3's window. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

export async function lookUpByEmail(client: webApi.WebClient, email: string): Promise<SlackLookup> {
  try {
    const { user } = await client.users.lookupByEmail({ email });
    if (!user?.id) return { kind: 'missing' };
    return user.deleted ? { kind: 'deleted', user: user.id } : { kind: 'active', user: user.id };
  } catch (error) {
    const limited = slackRateLimit(error);
    if (limited) {
      const sec = limited.retryAfterSec;
      return { kind: 'busy', retryAfterMs: sec === undefined ? DEFAULT_RETRY_AFTER_MS : sec * 1000 };
    }
    const code = (error as { data?: { error?: unknown } }).data?.error;
    if (code === 'users_not_found') return { kind: 'missing' };
    return { kind: 'failed', error: typeof code === 'string' ? code : String(error) };
  }
}

/** The e-mail of a member from users.info, when the event's profile had none. */
export async function emailOfMember(client: webApi.WebClient, userId: string): Promise<string | undefined> {
  const { user } = await client.users.info({ user: userId });
  const email = user?.profile?.email;
  return typeof email === 'string' && email !== '' ? email : undefined;
}
