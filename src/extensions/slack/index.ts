/**
 * Registration only: the learner's "Ask for more time" button and form, and the approvers' Approve,
 * Deny… and deny modal. The service they call is built by the composition root (src/app/compose.ts,
 * through ./start.ts) and reaches them in deps.extensions.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { ExtensionActionId, ExtensionCallbackId } from '../../kernel/blocks/ids.js';
import type { Surface } from '../../kernel/slack/state.js';
import { createApproveHandler, createDenyHandler, createDenySubmitHandler } from './decide.js';
import { createMoreTimeHandler, createMoreTimeSubmitHandler } from './more-time.js';

export function registerExtensions(app: App, s: Surface): void {
  app.action<BlockAction<ButtonAction>>(ExtensionActionId.moreTime, createMoreTimeHandler(s));
  app.action<BlockAction<ButtonAction>>(ExtensionActionId.approve, createApproveHandler(s));
  app.action<BlockAction<ButtonAction>>(ExtensionActionId.deny, createDenyHandler(s));
  app.view(ExtensionCallbackId.form, createMoreTimeSubmitHandler(s));
  app.view(ExtensionCallbackId.denyForm, createDenySubmitHandler(s));
}
