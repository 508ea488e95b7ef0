import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { CallbackId, ChangeActionId } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createAssignSubmitHandler } from './assign-submit.js';
import { createExtendSubmitHandler, createPastConfirmSubmitHandler } from './extend-submit.js';
import { createRecycleSubmitHandler } from './recycle-submit.js';
import { createRetryAssignHandler } from './retry-assign.js';

/** Registration only: the submissions of the change modals, and the one button that lives in a modal. */
export function registerViews(app: App, deps: AppDeps): void {
  app.view(CallbackId.assignForm, createAssignSubmitHandler(deps));
  app.view(CallbackId.recycleConfirm, createRecycleSubmitHandler(deps));
  app.view(CallbackId.extendForm, createExtendSubmitHandler(deps));
  app.view(CallbackId.extendPastConfirm, createPastConfirmSubmitHandler(deps));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.retryAssign, createRetryAssignHandler(deps));
}
