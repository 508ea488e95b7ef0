import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId, ChangeActionId, InputId } from '../../../kernel/blocks/ids.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { createAssignButtonHandler, createChangeEndDateButtonHandler } from './change-buttons.js';
import { createRecyclePickHandler } from './recycle-pick.js';
import { createRevokeButtonHandler, createRevokeCancelHandler, createRevokeConfirmHandler } from './revoke.js';

/** Registration only: the change buttons (assign, end date, revoke) and the recycle confirmation's pick. */
export function registerActions(app: App, s: Surface): void {
  app.action<BlockAction<ButtonAction>>(ActionId.poolAssign, createAssignButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseChangeEndDate, createChangeEndDateButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ActionId.licenseRevoke, createRevokeButtonHandler(s));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeConfirm, createRevokeConfirmHandler(s));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.revokeCancel, createRevokeCancelHandler(s));
  // A pick in the recycle confirmation's select (a static_select; read as such in the handler).
  app.action<BlockAction<ButtonAction>>(InputId.recycleChoice.action, createRecyclePickHandler(s));
}
