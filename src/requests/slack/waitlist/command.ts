/**
 * `/licenses waitlist [poolId]`: the approved requests waiting for a seat, one pool's line or every
 * line, as an ephemeral message. License viewers see it; license admins also get Move up, Move down
 * and Remove. No licensing request: the lines are License Desk's own data.
 */
import { buildNoticeMessage } from '../../../kernel/blocks/common.js';
import type { AppDeps } from '../../../kernel/slack/deps.js';
import type { Replier } from '../../../kernel/slack/reply.js';
import { buildWaitlistMessage } from '../../blocks/waitlist.js';

export const WAITLIST_NOT_SET_UP =
  'The waitlist is not set up in this License Desk process (it needs DATA_DIR); ask whoever runs License Desk.';

export async function runWaitlistCommand(
  deps: AppDeps,
  canChange: boolean,
  poolId: string | undefined,
  reply: Replier,
): Promise<void> {
  const waitlist = deps.waitlist;
  if (!waitlist) return reply.send(buildNoticeMessage(WAITLIST_NOT_SET_UP));
  const entries = await waitlist.entries(poolId);
  await reply.send(buildWaitlistMessage({ entries, ...(poolId ? { poolId } : {}), canChange }));
}
