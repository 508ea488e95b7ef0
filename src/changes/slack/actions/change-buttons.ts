/**
 * Assign (on a pool) and Change end date (on a license) open their modals: ack, the gate, then
 * views.open with a loading view before any licensing call (design.md section 2, shape 2).
 */
import { buildErrorMessage } from '../../../kernel/blocks/common.js';
import { channelOf, idValue } from '../../../kernel/blocks/values.js';
import { BUTTON_GONE, type ClickArgs, onClick, tellClicker } from '../../../kernel/slack/gate.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { openAssignModal, openExtendModal } from '../open-modal.js';

/** views.open failed: most often the trigger_id's 3 seconds ran out while Slack or we were slow. */
const NOT_OPENED = 'Slack did not open the window in time; nothing was changed. Please click again.';

function contextOf(args: ClickArgs) {
  const channel = channelOf(args.body.channel?.id ?? args.body.container.channel_id);
  return { triggerId: args.body.trigger_id, channelId: channel };
}

export function createAssignButtonHandler(s: Surface) {
  const poolOf = (args: ClickArgs) => {
    const poolId = idValue.decode(args.action.value);
    return poolId ? { poolId } : {};
  };
  return onClick(s, { need: 'admin', audit: (args) => ({ action: 'assign', target: poolOf(args) }) }, async (args) => {
    if (!(await openAssignModal(s, args.client, contextOf(args), poolOf(args))))
      await tellClicker(s, args, buildErrorMessage(NOT_OPENED));
  });
}

export function createChangeEndDateButtonHandler(s: Surface) {
  const licenseOf = (args: ClickArgs) => {
    const licenseId = idValue.decode(args.action.value);
    return licenseId ? { licenseId } : {};
  };
  const gate = {
    need: 'admin' as const,
    audit: (args: ClickArgs) => ({ action: 'extend' as const, target: licenseOf(args) }),
  };
  return onClick(s, gate, async (args) => {
    const licenseId = idValue.decode(args.action.value);
    if (!licenseId) return tellClicker(s, args, buildErrorMessage(BUTTON_GONE));
    if (!(await openExtendModal(s, args.client, contextOf(args), licenseId, undefined)))
      await tellClicker(s, args, buildErrorMessage(NOT_OPENED));
  });
}
