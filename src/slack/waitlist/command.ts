/**
 * `/licenses waitlist [poolId]`: the approved requests waiting for a seat, one pool's line or every
 * line, as an ephemeral message. License viewers see it; license admins also get Move up, Move down
 * and Remove. No licensing request: the lines are License Desk's own data.
 */
import { buildNoticeMessage } from '../../blocks/common.js';
import { buildWaitlistMessage } from '../../blocks/waitlist.js';
import { ID_RULE, isId } from '../../domain/ids.js';
import type { Replier } from '../commands/reply.js';
import type { AppDeps, Role } from '../deps.js';
import { permits } from '../gate.js';
import { quote } from '../parse.js';

export type WaitlistCommand = { kind: 'waitlist'; poolId?: string };

/** `waitlist [poolId]` after the subcommand word: the command, or help with what was wrong. Pure, total. */
export function parseWaitlist(words: string[]): WaitlistCommand | { kind: 'help'; reason: string } {
  if (words.length > 1)
    return { kind: 'help', reason: `\`waitlist\` does not take ${quote(words.slice(1).join(' '))}.` };
  const [word] = words;
  if (word === undefined) return { kind: 'waitlist' };
  const id = word.replace(/^#/, '');
  return isId(id)
    ? { kind: 'waitlist', poolId: id }
    : { kind: 'help', reason: `${quote(word)} is not a pool id; ids are ${ID_RULE}.` };
}

export const WAITLIST_NOT_SET_UP =
  'The waitlist is not set up in this License Desk process (it needs DATA_DIR); ask whoever runs License Desk.';

export async function runWaitlistCommand(
  deps: AppDeps,
  role: Exclude<Role, 'none'>,
  poolId: string | undefined,
  reply: Replier,
): Promise<void> {
  const waitlist = deps.waitlist;
  if (!waitlist) return reply.send(buildNoticeMessage(WAITLIST_NOT_SET_UP));
  const entries = await waitlist.entries(poolId);
  await reply.send(buildWaitlistMessage({ entries, ...(poolId ? { poolId } : {}), canChange: permits(role, 'admin') }));
}
