/**
 * Registration only: the learner's buttons (docs/learners.md). "Return my seat" opens its confirmation
 * (the license read fresh and checked against the clicker's own e-mail), the confirmation's submission
 * returns the seat through the revoke use case, and "Stop these reminders" is remembered. No role is
 * asked: any full member may act on their own licenses, and only on those. "Ask for more time" is the
 * extension request's, registered by its own feature.
 */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { showHome } from '../../home/index.js';
import { buildErrorMessage } from '../../kernel/blocks/common.js';
import { LearnerActionId, LearnerCallbackId } from '../../kernel/blocks/ids.js';
import { buildLoadingModal } from '../../kernel/blocks/modal-kit.js';
import { buildOutcomeModal, buildWorkingModal } from '../../kernel/blocks/outcome.js';
import { authorizeMember, BUTTON_GONE, type ClickArgs, type SubmitArgs, tellClicker } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { markedAck, openView, updateView } from '../../kernel/slack/slack-io.js';
import { changeContext, type Surface } from '../../kernel/slack/state.js';
import {
  buildRemindersStoppedMessage,
  buildReturnConfirmModal,
  RETURN_TITLE,
  returnOutcome,
} from '../blocks/learners.js';
import { createLearnerStore } from '../db/store.js';
import { checkReturn, giveBack } from '../services/give-back.js';
import { memberEmail } from './email.js';

/** What the confirmation carries: the license and whether it was clicked on App Home (republished after). */
interface ReturnMeta {
  licenseId: string;
  home: boolean;
}

const LICENSE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function readMeta(raw: string | undefined): ReturnMeta | undefined {
  try {
    const v = JSON.parse(raw ?? '') as Partial<ReturnMeta>;
    return typeof v.licenseId === 'string' && LICENSE_ID.test(v.licenseId)
      ? { licenseId: v.licenseId, home: v.home === true }
      : undefined;
  } catch {
    return undefined;
  }
}

/** "Return my seat": a loading modal at once (the trigger lives 3 s), then the confirmation or why not. */
function createReturnClickHandler(s: Surface) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const { deps } = s;
    const user = args.body.user.id;
    const licenseId = args.action.value ?? '';
    if (!LICENSE_ID.test(licenseId)) return tellClicker(s, args, buildErrorMessage(BUTTON_GONE));
    const viewId = await openView(
      deps,
      args.client,
      args.body.trigger_id,
      buildLoadingModal(LearnerCallbackId.returnConfirm, RETURN_TITLE, 'Reading your license'),
    );
    if (!viewId) return;
    const show = (headline: string) =>
      updateView(deps, args.client, viewId, buildOutcomeModal({ title: RETURN_TITLE, tone: 'refused', headline }));
    const member = await authorizeMember(deps, args.client, user);
    if (!member.allowed) return void (await show(member.text));
    const found = await memberEmail(args.client, user);
    if ('problem' in found) return void (await show(found.problem));
    const check = await checkReturn(deps.licensing, licenseId, found.email, deps.now());
    const meta: ReturnMeta = { licenseId, home: args.body.container?.type === 'view' };
    await updateView(deps, args.client, viewId, buildReturnConfirmModal(check, JSON.stringify(meta), deps.now()));
  };
}

/** The confirmation's "Return it": the holder checked again, then the return, its outcome in the modal. */
function createReturnSubmitHandler(s: Surface) {
  return async (raw: SubmitArgs): Promise<void> => {
    const { deps } = s;
    const ack = markedAck(deps, raw.ack);
    const user = raw.body.user.id;
    const meta = readMeta(raw.view.private_metadata);
    if (!meta) {
      return ack({
        response_action: 'update',
        view: buildOutcomeModal({ title: RETURN_TITLE, tone: 'refused', headline: BUTTON_GONE }),
      });
    }
    await ack({ response_action: 'update', view: buildWorkingModal(RETURN_TITLE, 'Returning your seat') });
    const viewId = raw.view.id;
    const finish = (view: Parameters<typeof updateView>[3]) => updateView(deps, raw.client, viewId, view);
    if (!(await s.state.once.claim(`learner-return:${viewId}`))) return;
    const member = await authorizeMember(deps, raw.client, user);
    if (!member.allowed) {
      return void (await finish(buildOutcomeModal({ title: RETURN_TITLE, tone: 'refused', headline: member.text })));
    }
    const found = await memberEmail(raw.client, user);
    if ('problem' in found) {
      return void (await finish(buildOutcomeModal({ title: RETURN_TITLE, tone: 'failed', headline: found.problem })));
    }
    const outcome = await giveBack(changeContext(s), { actor: user, licenseId: meta.licenseId, email: found.email });
    await finish(buildOutcomeModal({ title: RETURN_TITLE, ...returnOutcome(outcome) }));
    if (meta.home) await showHome(deps, raw.client, user);
  };
}

/** "Stop these reminders": remembered in the records, answered under the reminder. */
function createStopRemindersHandler(s: Surface) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const { deps } = s;
    const reply = createReplier(args.respond, deps, true);
    if (!deps.records) return reply.send(buildErrorMessage('Reminders are not kept in this process.'));
    try {
      await createLearnerStore(deps.records).setRemindersOff(args.body.user.id, true, deps.now().toISOString());
      await reply.send(buildRemindersStoppedMessage());
    } catch (error) {
      deps.logger.error('could not stop the learner reminders', { error: String(error) });
      await reply.send(buildErrorMessage('I could not save that right now; nothing changed. Please try again.'));
    }
  };
}

export function registerLearners(app: App, s: Surface): void {
  app.action<BlockAction<ButtonAction>>(LearnerActionId.returnSeat, createReturnClickHandler(s));
  app.view<ViewSubmitAction>(LearnerCallbackId.returnConfirm, createReturnSubmitHandler(s));
  app.action<BlockAction<ButtonAction>>(LearnerActionId.stopReminders, createStopRemindersHandler(s));
}
