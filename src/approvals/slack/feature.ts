/**
 * Approving many at once as the composition root sees it (kernel/slack/feature.ts): the list's pager,
 * Approve selected and Deny selected, their confirmations, and the stop of the decisions running in
 * the background. Its subcommand goes through the /licenses router. It keeps no records of its own:
 * each decision is the course requests' own (their intents, settling and notices).
 */
import type { App } from '@slack/bolt';
import { ApprovalsActionId, ApprovalsCallbackId, ApprovalsInputId } from '../../kernel/blocks/ids.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { createConfirmSubmitHandler, createSelectedHandler } from './confirm.js';
import { createPagerHandler } from './list.js';
import { createRuns, type Runs } from './runs.js';

export function approvalsFeature(runs: Runs = createRuns()): Feature {
  return {
    name: 'approvals',
    register(app: App, surface) {
      const pager = createPagerHandler(surface);
      app.action(ApprovalsActionId.previous, pager);
      app.action(ApprovalsActionId.next, pager);
      app.action(ApprovalsActionId.approveSelected, createSelectedHandler(surface, 'approve'));
      app.action(ApprovalsActionId.denySelected, createSelectedHandler(surface, 'deny'));
      // A tick sends block_actions (checkboxes in an actions block): acked, nothing to do; the ticks are read
      // from the view's state at the next click on a button.
      app.action(ApprovalsInputId.pickAction, async ({ ack }) => ack());
      app.view(ApprovalsCallbackId.confirmApprove, createConfirmSubmitHandler(surface, runs, 'approve'));
      app.view(ApprovalsCallbackId.confirmDeny, createConfirmSubmitHandler(surface, runs, 'deny'));
    },
    stop: (withinMs) => runs.stop(withinMs),
  };
}
