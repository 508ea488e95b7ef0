/**
 * "Retry assign" in the result view after a recycle whose assign failed once the seat was freed. A
 * click inside a modal has no response_url (platform.md section 1.3): the answer goes to the view.
 * The role is asked again; the parameters come from the view's private_metadata, never the role.
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { escapeTruncated } from '../../blocks/mrkdwn.js';
import { buildOutcomeView, buildWorkingView } from '../../blocks/outcome.js';
import { RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import type { AppDeps } from '../deps.js';
import { runAssign } from './assign-run.js';
import { decodeMeta, pendingAssignSchema } from './metadata.js';
import { EXPIRED, paramsOf } from './recycle-submit.js';
import { adminOnlyText, roleOf, updateView } from './slack-io.js';
import { changeState } from './state.js';

type Args = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export function createRetryAssignHandler(deps: AppDeps) {
  return async ({ ack, body, client }: Args): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view) return;
    const actor = body.user.id;
    const state = changeState(deps);
    if ((await roleOf(deps, client, actor)) !== 'admin') {
      await state.audit.record({
        at: deps.now().toISOString(),
        actor,
        action: 'recycle',
        outcome: 'refused',
        detail: 'not a license admin (Retry assign)',
      });
      const headline = adminOnlyText(deps);
      await updateView(deps, client, view.id, buildOutcomeView({ title: RECYCLE_TITLE, tone: 'refused', headline }));
      return;
    }
    const meta = decodeMeta(pendingAssignSchema, view.private_metadata);
    if (!meta) {
      await updateView(deps, client, view.id, EXPIRED);
      return;
    }
    // The view changes (and its hash with it) as soon as the first click is at work: a double click repeats the hash.
    if (!state.once.claim(`retry:${view.id}:${view.hash}`)) return;
    await updateView(
      deps,
      client,
      view.id,
      buildWorkingView(RECYCLE_TITLE, `Assigning the free seat to ${escapeTruncated(meta.e, 254)}`),
    );
    await runAssign(deps, client, {
      viewId: view.id,
      actor,
      channel: meta.c,
      params: paramsOf(meta),
      pool: undefined,
      action: 'recycle',
      title: RECYCLE_TITLE,
      ...(meta.r ? { detail: `retry after revoking license ${meta.r}` } : {}),
    });
  };
}
