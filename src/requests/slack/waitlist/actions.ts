/**
 * Move up, Move down and Remove on a waiting request (App Home and `/licenses waitlist`): license
 * admins only, asked through the gate on every click; the button value is a hint (which request, which
 * list was shown), never authority. The list is shown again as it is now, with what the click did.
 */
import * as z from 'zod';
import { showHome } from '../../../home/index.js';
import { buildErrorMessage, buildNoticeMessage } from '../../../kernel/blocks/common.js';
import { WaitlistActionId } from '../../../kernel/blocks/ids.js';
import { ID_PATTERN } from '../../../kernel/domain/ids.js';
import { onClick, tellClicker } from '../../../kernel/slack/gate.js';
import { createReplier } from '../../../kernel/slack/reply.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { buildWaitlistMessage } from '../../blocks/waitlist.js';
import { WAITLIST_NOT_SET_UP } from './command.js';
import { withWaitlist } from './home.js';

const buttonValue = z.object({ r: z.string().regex(ID_PATTERN), f: z.string().regex(ID_PATTERN).optional() });

export type WaitlistClick = 'up' | 'down' | 'remove';

export const WAITLIST_CLICKS: Record<WaitlistClick, string> = {
  up: WaitlistActionId.moveUp,
  down: WaitlistActionId.moveDown,
  remove: WaitlistActionId.remove,
};

function parseValue(raw: string | undefined): z.infer<typeof buttonValue> | undefined {
  try {
    const parsed = buttonValue.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function createWaitlistButtonHandler(s: Surface, click: WaitlistClick) {
  const { deps } = s;
  const gate = {
    need: 'admin' as const,
    audit: (args: { action: { value?: string } }) => {
      const value = parseValue(args.action.value);
      return {
        action: click === 'remove' ? ('waitlist-removed' as const) : ('waitlist-moved' as const),
        ...(value ? { target: { requestId: value.r } } : {}),
      };
    },
  };
  return onClick(s, gate, async (args) => {
    const actor = args.body.user.id;
    const value = parseValue(args.action.value);
    const waitlist = deps.waitlist;
    const requests = deps.requests?.service;
    if (!waitlist || !requests) return tellClicker(s, args, buildNoticeMessage(WAITLIST_NOT_SET_UP));
    if (!value) {
      return tellClicker(
        s,
        args,
        buildErrorMessage('That button no longer works; please run /licenses waitlist again.'),
      );
    }
    const line = await waitlist.entries();
    const current = line.find((e) => e.requestId === value.r);
    let note: string;
    if (!current) {
      note = 'That request is no longer on the waitlist (it got a seat, or someone removed it).';
    } else if (click === 'remove') {
      const removed = await requests.removeFromWaitlist(value.r, actor);
      note = removed
        ? `Removed the request of the person who was number ${current.place} for pool ${current.poolId}.`
        : 'That request is being given a seat right now, so it was not removed; its card shows the outcome in a moment.';
    } else {
      const place = await waitlist.move(value.r, current.place - 1 + (click === 'up' ? -1 : 1), actor);
      note = `Moved that request to number ${place ?? current.place} for pool ${current.poolId}.`;
    }
    if (!args.body.response_url) return showHome(deps, args.client, actor, { sections: withWaitlist });
    const entries = await waitlist.entries(value.f);
    await createReplier(args.respond, deps, false).send(
      buildWaitlistMessage({ entries, ...(value.f ? { poolId: value.f } : {}), canChange: true, note }),
    );
  });
}
