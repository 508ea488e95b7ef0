/**
 * Assign (on a pool) and Change end date (on a license) open their modals: ack, the role, then
 * views.open with a loading view before any licensing call (design.md section 2, shape 2).
 */
import { buildErrorMessage } from '../../blocks/common.js';
import { ID_PATTERN } from '../../domain/ids.js';
import type { AppDeps } from '../deps.js';
import { channelOf } from '../views/metadata.js';
import { openAssignModal, openExtendModal } from '../views/open-modal.js';
import { roleOf } from '../views/slack-io.js';
import type { ButtonArgs } from './navigate.js';
import { refuseClick, tellClicker } from './revoke.js';

/** views.open failed: most often the trigger_id's 3 seconds ran out while Slack or we were slow. */
const NOT_OPENED = 'Slack did not open the window in time; nothing was changed. Please click again.';

function contextOf(args: ButtonArgs) {
  const channel = channelOf(args.body.channel?.id ?? args.body.container.channel_id);
  return { triggerId: args.body.trigger_id, channelId: channel };
}

export function createAssignButtonHandler(deps: AppDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const poolId = args.action.value ?? '';
    const role = await roleOf(deps, args.client, args.body.user.id);
    if (role !== 'admin') return refuseClick(deps, args, role, 'assign', ID_PATTERN.test(poolId) ? { poolId } : {});
    if (!(await openAssignModal(deps, args.client, contextOf(args), ID_PATTERN.test(poolId) ? { poolId } : {})))
      await tellClicker(deps, args, buildErrorMessage(NOT_OPENED));
  };
}

export function createChangeEndDateButtonHandler(deps: AppDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const licenseId = args.action.value ?? '';
    const role = await roleOf(deps, args.client, args.body.user.id);
    if (role !== 'admin')
      return refuseClick(deps, args, role, 'extend', ID_PATTERN.test(licenseId) ? { licenseId } : {});
    if (!ID_PATTERN.test(licenseId))
      return tellClicker(deps, args, buildErrorMessage('That button no longer works; please run /licenses again.'));
    if (!(await openExtendModal(deps, args.client, contextOf(args), licenseId, undefined)))
      await tellClicker(deps, args, buildErrorMessage(NOT_OPENED));
  };
}
