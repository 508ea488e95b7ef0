/**
 * Registration only: the course-request surfaces (the approvers' buttons, the requester's Cancel, the
 * form from App Home and the global shortcut, the deny modal, the Workflow Builder step). The service
 * they call is built by the composition root (src/app/compose.ts, through src/requests/slack/start.ts) and reaches them in deps.requests.
 */
import type { App, BlockAction, ButtonAction, GlobalShortcut } from '@slack/bolt';
import { RequestActionId, RequestCallbackId } from '../../kernel/blocks/ids.js';
import type { ClickArgs } from '../../kernel/slack/gate.js';
import type { Surface } from '../../kernel/slack/state.js';
import {
  createApproveButtonHandler,
  createCancelButtonHandler,
  createDenyButtonHandler,
  createDenySubmitHandler,
  createWaitlistButtonHandler,
} from './decide.js';
import { createRequestSubmitHandler, openRequestModal } from './form.js';
import { createRecycleButtonHandler } from './recycle.js';
import { createRequestStepHandler } from './workflow.js';

export function registerRequests(app: App, s: Surface): void {
  const { deps } = s;
  const button = (id: string, handler: (args: ClickArgs) => Promise<void>) =>
    app.action<BlockAction<ButtonAction>>(id, handler);
  button(RequestActionId.approve, createApproveButtonHandler(s));
  button(RequestActionId.deny, createDenyButtonHandler(s));
  button(RequestActionId.waitlist, createWaitlistButtonHandler(s));
  button(RequestActionId.recycle, createRecycleButtonHandler(s));
  button(RequestActionId.cancel, createCancelButtonHandler(s));
  // Open to every member who may request: the requester check runs in openRequestModal.
  button(RequestActionId.open, async ({ ack, body, client }) => {
    await ack();
    await openRequestModal(deps, client, body.trigger_id, body.user.id, 'home');
  });
  // "Ask for it again" after a reclaim release: the same form, its pool picked (value = pool id).
  button(RequestActionId.openFor, async ({ ack, body, client, action }) => {
    await ack();
    const poolId = /^[0-9A-Za-z_-]{1,64}$/.test(action.value ?? '') ? [action.value ?? ''] : [];
    await openRequestModal(deps, client, body.trigger_id, body.user.id, 'home', poolId);
  });
  app.view(RequestCallbackId.form, createRequestSubmitHandler(deps));
  app.view(RequestCallbackId.denyForm, createDenySubmitHandler(s));
  app.shortcut<GlobalShortcut>(RequestCallbackId.shortcut, async ({ ack, shortcut, client }) => {
    await ack();
    await openRequestModal(deps, client, shortcut.trigger_id, shortcut.user.id, 'shortcut');
  });
  app.function(
    RequestCallbackId.workflowStep,
    createRequestStepHandler(deps, () => app.client),
  );
}
