/**
 * "Retry assign" in the result view after a recycle whose assign failed once the seat was freed. A
 * click inside a modal has no response_url (platform.md section 1.3): the answer goes to the view.
 * The role is asked again; the parameters come from the view's private_metadata, never the role, and
 * are only hints: the license it names as revoked, the pool's free seat and the newcomer's rules are
 * read again (services/recycle.ts, checkRetryAssign) and nothing is sent when one fails.
 */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { escapeMrkdwn, escapeTruncated } from '../../blocks/mrkdwn.js';
import { buildOutcomeView, buildWorkingView } from '../../blocks/outcome.js';
import { RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import type { Pool } from '../../domain/types.js';
import { checkRetryAssign, type RetryRefusal } from '../../services/recycle.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { SlackBusyError } from '../roles.js';
import { finishChange, runAssign } from './assign-run.js';
import { decodeMeta, pendingAssignSchema } from './metadata.js';
import { EXPIRED, paramsOf } from './recycle-submit.js';
import { refusalDetail, retryRefusalOutcome } from './refusal-text.js';
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
    const role = await roleOf(deps, client, actor);
    if (role instanceof SlackBusyError) {
      const busy = buildOutcomeView({ title: RECYCLE_TITLE, tone: 'failed', headline: adminOnlyText(deps, role) });
      await updateView(deps, client, view.id, busy);
      return;
    }
    if (role !== 'admin') {
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
    if (!meta?.r) {
      await updateView(deps, client, view.id, EXPIRED);
      return;
    }
    const revokedId = meta.r;
    // The view changes (and its hash with it) as soon as the first click is at work: a double click repeats the hash.
    if (!(await state.once.claim(`retry:${view.id}:${view.hash}`))) return;
    await updateView(
      deps,
      client,
      view.id,
      buildWorkingView(RECYCLE_TITLE, `Assigning the free seat to ${escapeTruncated(meta.e, 254)}`),
    );
    const run = { viewId: view.id, actor, channel: meta.c, title: RECYCLE_TITLE };
    const params = paramsOf(meta);
    const facts = { at: deps.now().toISOString(), actor, action: 'recycle' as const, poolId: meta.p };
    const student = { studentEmail: meta.e, ...(meta.n ? { studentName: meta.n } : {}) };
    let refusal: RetryRefusal | undefined;
    let pool: Pool | undefined;
    try {
      ({ refusal, pool } = await checkRetryAssign(deps.licensing, params, revokedId, deps.now()));
    } catch (error) {
      const why = presentError(error, 'pool', 'admin');
      const headline = `${escapeMrkdwn(why)} No license was assigned.`;
      const entry = {
        ...facts,
        ...student,
        outcome: 'failed' as const,
        detail: `could not re-check the retry: ${why}`,
      };
      return finishChange(deps, client, run, { tone: 'failed', headline }, entry);
    }
    if (refusal) {
      const told = retryRefusalOutcome(refusal, meta.p, meta.e);
      const entry = { ...facts, ...student, outcome: 'refused' as const, detail: refusalDetail(refusal) };
      return finishChange(deps, client, run, told, entry);
    }
    await runAssign(deps, client, {
      ...run,
      params,
      pool,
      action: 'recycle',
      detail: `retry after revoking license ${revokedId}`,
    });
  };
}
