import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, ChangeActionId, NAV_ACTION_IDS } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createAssignButtonHandler, createChangeEndDateButtonHandler } from './change-buttons.js';
import { createNavigationHandler } from './navigate.js';
import { createRevokeButtonHandler, createRevokeCancelHandler, createRevokeConfirmHandler } from './revoke.js';

/** Registration only: navigation, and the change buttons (assign, end date, revoke). */
export function registerActions(app: App, deps: AppDeps): void {
  const navigate = createNavigationHandler(deps);
  for (const id of NAV_ACTION_IDS) app.action<BlockAction<ButtonAction>>(id, navigate);
  app.action<BlockAction<ButtonAction>>(ActionId.poolAssign, createAssignButtonHandler(deps));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseChangeEndDate, createChangeEndDateButtonHandler(deps));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseRevoke, createRevokeButtonHandler(deps));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeConfirm, createRevokeConfirmHandler(deps));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeCancel, createRevokeCancelHandler(deps));
}
