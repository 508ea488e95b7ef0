import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { CallbackId, ChangeActionId } from '../../../kernel/blocks/ids.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { createAssignSubmitHandler } from './assign-submit.js';
import { createExtendSubmitHandler, createPastConfirmSubmitHandler } from './extend-submit.js';
import { createRecycleSubmitHandler } from './recycle-submit.js';
import { createRetryAssignHandler } from './retry-assign.js';

/** Registration only: the submissions of the change modals, and the one button that lives in a modal. */
export function registerViews(app: App, s: Surface): void {
  app.view(CallbackId.assignForm, createAssignSubmitHandler(s));
  app.view(CallbackId.recycleConfirm, createRecycleSubmitHandler(s));
  app.view(CallbackId.extendForm, createExtendSubmitHandler(s));
  app.view(CallbackId.extendPastConfirm, createPastConfirmSubmitHandler(s));
  app.action<BlockAction<ButtonAction>>(ChangeActionId.retryAssign, createRetryAssignHandler(s));
}
