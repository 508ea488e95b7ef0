import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { DeskActionId, DeskCallbackId } from '../../kernel/blocks/ids.js';
import type { Surface } from '../../kernel/slack/state.js';
import { createBulkOpenHandler } from './open.js';
import { registerPoolOptions } from './pool-options.js';
import { createBulkConfirmSubmitHandler, createBulkFormSubmitHandler } from './submit.js';

/** Registration only: bulk assignment's modal. `/licenses bulk` opens it from the command. */
export function registerBulk(app: App, s: Surface): void {
  app.view(DeskCallbackId.bulkForm, createBulkFormSubmitHandler(s));
  app.view(DeskCallbackId.bulkConfirm, createBulkConfirmSubmitHandler(s));
  app.action<BlockAction<ButtonAction>>(DeskActionId.bulkOpen, createBulkOpenHandler(s.deps));
  registerPoolOptions(app, s.deps);
}
