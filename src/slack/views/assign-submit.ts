/**
 * The assign form is submitted (design.md section 2, shape 3): role, zod, pure checks, inline errors
 * with no write; otherwise the form becomes a "working" view, the license is assigned and the result
 * replaces it. A full transferable pool with "free a seat" ticked goes to the recycle confirmation.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ASSIGN_TITLE } from '../../blocks/assign-modal.js';
import { escapeMrkdwn, escapeTruncated } from '../../blocks/mrkdwn.js';
import { buildOutcomeView, buildWorkingView } from '../../blocks/outcome.js';
import { buildRecycleConfirmView, RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import { needsRecycle } from '../../domain/assignment.js';
import type { Pool } from '../../domain/types.js';
import type { AssignParams } from '../../services/assign.js';
import { loadRecycleChoice } from '../../services/recycle.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { SlackBusyError } from '../roles.js';
import { checkAssignForm } from './assign-checks.js';
import { runAssign } from './assign-run.js';
import { readAssignForm } from './form.js';
import { assignMetaSchema, decodeMeta, encodeMeta } from './metadata.js';
import { adminOnlyText, markedAck, type RoleAnswer, roleOf, updateView } from './slack-io.js';
import { changeState } from './state.js';

export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * Refuses a non-admin's submission in the modal itself, and records the attempt. When Slack was too
 * busy to tell the role, the person is asked to try again instead, and there was no attempt to record.
 */
export async function refuseSubmission(
  deps: AppDeps,
  { ack, body }: Pick<ViewArgs, 'ack' | 'body'>,
  title: string,
  action: 'assign' | 'recycle' | 'extend',
  answer: RoleAnswer,
): Promise<void> {
  const busy = answer instanceof SlackBusyError;
  await ack({
    response_action: 'update',
    view: buildOutcomeView({ title, tone: busy ? 'failed' : 'refused', headline: adminOnlyText(deps, answer) }),
  });
  if (busy) return;
  await changeState(deps).audit.record({
    at: deps.now().toISOString(),
    actor: body.user.id,
    action,
    outcome: 'refused',
    detail: 'not a license admin',
  });
}

export function createAssignSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: ViewArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const actor = body.user.id;
    const role = await roleOf(deps, client, actor);
    if (role !== 'admin') return refuseSubmission(deps, { ack, body }, ASSIGN_TITLE, 'assign', role);
    const state = changeState(deps);
    const channel = decodeMeta(assignMetaSchema, view.private_metadata)?.c;
    const form = readAssignForm(view.state);
    const { errors, email, pool } = await checkAssignForm(deps, client, form, state.snapshots.get(view.id));
    if (Object.keys(errors).length > 0 || !email || !form.poolId) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    const params: AssignParams = {
      poolId: form.poolId,
      email,
      ...(form.name ? { name: form.name } : {}),
      ...(form.endDate && form.endDate !== 'invalid' ? { endDate: form.endDate } : {}),
    };
    if (pool && needsRecycle(pool) && form.recycle) {
      await ack({
        response_action: 'update',
        view: buildWorkingView(RECYCLE_TITLE, 'Finding the license that would end'),
      });
      // A repeated delivery of this submission would read the candidates again (about 3 requests).
      if (!(await state.once.claim(`recycle-choice:${view.id}:${view.hash}`))) return;
      return showRecycleChoice(deps, client, view.id, pool, params, channel);
    }
    const working = buildWorkingView(ASSIGN_TITLE, `Assigning a license to ${escapeTruncated(email, 254)}`);
    if (!(await state.once.claim(`assign:${view.id}:${params.poolId}:${email.toLowerCase()}`))) {
      // A repeated submission: the first one is at work and will fill in the result.
      await ack({ response_action: 'update', view: working });
      return;
    }
    await ack({ response_action: 'update', view: working });
    await runAssign(deps, client, {
      viewId: view.id,
      actor,
      channel,
      params,
      pool,
      action: 'assign',
      title: ASSIGN_TITLE,
    });
  };
}

async function showRecycleChoice(
  deps: AppDeps,
  client: ViewArgs['client'],
  viewId: string,
  pool: Pool,
  params: AssignParams,
  channel: string | undefined,
): Promise<void> {
  try {
    const choice = await loadRecycleChoice(deps.licensing, pool.id, deps.now());
    const privateMetadata = encodeMeta({
      ...(channel ? { c: channel } : {}),
      p: params.poolId,
      e: params.email,
      ...(params.name ? { n: params.name } : {}),
      ...(params.endDate ? { d: params.endDate } : {}),
      ...(choice.defaultLicense ? { x: choice.defaultLicense.id } : {}),
    });
    const newStudent = { email: params.email, ...(params.name ? { name: params.name } : {}) };
    await updateView(deps, client, viewId, buildRecycleConfirmView({ ...choice, newStudent, privateMetadata }));
  } catch (error) {
    const headline = escapeMrkdwn(presentError(error, 'pool', 'admin'));
    await updateView(deps, client, viewId, buildOutcomeView({ title: RECYCLE_TITLE, tone: 'failed', headline }));
  }
}
