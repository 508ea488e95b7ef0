import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, ChangeActionId, NAV_ACTION_IDS } from '../../blocks/ids.js';
import type { Surface } from '../state.js';
import { createAssignButtonHandler, createChangeEndDateButtonHandler } from './change-buttons.js';
import { createNavigationHandler } from './navigate.js';
import { createRevokeButtonHandler, createRevokeCancelHandler, createRevokeConfirmHandler } from './revoke.js';

/** Registration only: navigation, and the change buttons (assign, end date, revoke). */
export function registerActions(app: App, s: Surface): void {
  const navigate = createNavigationHandler(s);
  for (const id of NAV_ACTION_IDS) app.action<BlockAction<ButtonAction>>(id, navigate);
  app.action<BlockAction<ButtonAction>>(ActionId.poolAssign, createAssignButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseChangeEndDate, createChangeEndDateButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseRevoke, createRevokeButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeConfirm, createRevokeConfirmHandler(s));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeCancel, createRevokeCancelHandler(s));
}
