/**
 * The one way License Desk opens a direct message: conversations.open (scope im:write), which gives the
 * DM's channel id; every notice, bulk report and alarm posts there.
 */
import type { webApi } from '@slack/bolt';

export async function openDm(client: webApi.WebClient, userId: string): Promise<string> {
  const res = await client.conversations.open({ users: userId });
  const id = res.channel?.id;
  if (!id) throw new Error('conversations.open returned no channel');
  return id;
}
