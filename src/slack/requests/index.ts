/**
 * Registration of the course-request surfaces: the buttons, the modals, the shortcut, the Workflow
 * Builder step; and the service over the app's own client (its events post the cards and DMs).
 */
import type { App, BlockAction, ButtonAction, GlobalShortcut } from '@slack/bolt';
import { RequestActionId, RequestCallbackId } from '../../blocks/ids.js';
import { createRequestCheck } from '../../services/requests/check.js';
import { createRequestService } from '../../services/requests/service.js';
import type { AppDeps } from '../deps.js';
import { createCancelButtonHandler, createDecideButtonHandler, createDenySubmitHandler } from './decide.js';
import { createRequestSubmitHandler, openRequestModal } from './form.js';
import { createRequestEvents } from './notify.js';
import { createRecycleButtonHandler } from './recycle.js';
import { createRequestStepHandler } from './workflow.js';

export function registerRequests(app: App, deps: AppDeps): void {
  const requests = deps.requests;
  if (requests && !requests.service) {
    requests.service = createRequestService({
      store: requests.store,
      licensing: deps.licensing,
      audit: () => deps.audit,
      events: createRequestEvents(app.client, deps, requests),
      now: deps.now,
      logger: deps.logger,
      timers: requests.timers,
      waitlist: requests.waitlist,
      work: deps.work,
    });
    requests.check = createRequestCheck(requests.service, deps.logger);
  }
  const button = (id: string, handler: ReturnType<typeof createDecideButtonHandler>) =>
    app.action<BlockAction<ButtonAction>>(id, handler);
  button(RequestActionId.approve, createDecideButtonHandler(deps, 'approve'));
  button(RequestActionId.deny, createDecideButtonHandler(deps, 'deny'));
  button(RequestActionId.waitlist, createDecideButtonHandler(deps, 'waitlist'));
  button(RequestActionId.recycle, createRecycleButtonHandler(deps));
  button(RequestActionId.cancel, createCancelButtonHandler(deps));
  app.action<BlockAction<ButtonAction>>(RequestActionId.open, async ({ ack, body, client }) => {
    await ack();
    await openRequestModal(deps, client, body.trigger_id, body.user.id, 'home');
  });
  app.view(RequestCallbackId.form, createRequestSubmitHandler(deps));
  app.view(RequestCallbackId.denyForm, createDenySubmitHandler(deps));
  app.shortcut<GlobalShortcut>(RequestCallbackId.shortcut, async ({ ack, shortcut, client }) => {
    await ack();
    await openRequestModal(deps, client, shortcut.trigger_id, shortcut.user.id, 'shortcut');
  });
  app.function(
    RequestCallbackId.workflowStep,
    createRequestStepHandler(deps, () => app.client),
  );
}
