import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId, DeskCallbackId } from '../../blocks/ids.js';
import type { AppDeps } from '../deps.js';
import { createBulkOpenHandler } from './open.js';
import { registerPoolOptions } from './pool-options.js';
import { createBulkConfirmSubmitHandler, createBulkFormSubmitHandler } from './submit.js';

/** Registration only: bulk assignment's modal. `/licenses bulk` opens it from the command. */
export function registerBulk(app: App, deps: AppDeps): void {
  app.view(DeskCallbackId.bulkForm, createBulkFormSubmitHandler(deps));
  app.view(DeskCallbackId.bulkConfirm, createBulkConfirmSubmitHandler(deps));
  app.action<BlockAction<ButtonAction>>(DeskActionId.bulkOpen, createBulkOpenHandler(deps));
  registerPoolOptions(app, deps);
}
