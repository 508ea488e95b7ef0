/**
 * The global shortcut "Assign a course license": ack, the role, then the assign modal. A shortcut has
 * no channel and no response_url, so a refusal is a small modal of its own (no licensing call).
 */
import type { AllMiddlewareArgs, GlobalShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { ASSIGN_TITLE } from '../../blocks/assign-modal.js';
import { buildOutcomeView } from '../../blocks/outcome.js';
import type { AppDeps } from '../deps.js';
import { SlackBusyError } from '../roles.js';
import { openAssignModal } from '../views/open-modal.js';
import { adminOnlyText, openView, roleOf } from '../views/slack-io.js';
import { changeState } from '../views/state.js';

type Args = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;

export function createAssignShortcutHandler(deps: AppDeps) {
  return async ({ ack, shortcut, client }: Args): Promise<void> => {
    await ack();
    const actor = shortcut.user.id;
    const role = await roleOf(deps, client, actor);
    if (role instanceof SlackBusyError) {
      const view = buildOutcomeView({ title: ASSIGN_TITLE, tone: 'failed', headline: adminOnlyText(deps, role) });
      await openView(deps, client, shortcut.trigger_id, view);
      return;
    }
    if (role !== 'admin') {
      const view = buildOutcomeView({ title: ASSIGN_TITLE, tone: 'refused', headline: adminOnlyText(deps) });
      await openView(deps, client, shortcut.trigger_id, view);
      await changeState(deps).audit.record({
        at: deps.now().toISOString(),
        actor,
        action: 'assign',
        outcome: 'refused',
        detail: 'not a license admin (shortcut)',
      });
      return;
    }
    await openAssignModal(deps, client, { triggerId: shortcut.trigger_id, channelId: undefined }, {});
  };
}
