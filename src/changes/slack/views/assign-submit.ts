/**
 * The assign form is submitted (design.md section 2, shape 3): the gate, zod, pure checks, inline errors
 * with no write; otherwise the form becomes a "working" view, the license is assigned and the result
 * replaces it. A full transferable pool with "free a seat" ticked goes to the recycle confirmation.
 */
import type { webApi } from '@slack/bolt';
import { InputId } from '../../../kernel/blocks/ids.js';
import { escapeMrkdwn, escapeTruncated } from '../../../kernel/blocks/mrkdwn.js';
import { buildOutcomeModal, buildWorkingModal } from '../../../kernel/blocks/outcome.js';
import { assignFormMeta, pendingAssignMeta } from '../../../kernel/blocks/values.js';
import type { Pool } from '../../../kernel/domain/types.js';
import { onSubmit } from '../../../kernel/slack/gate.js';
import { limitWait } from '../../../kernel/slack/limit-wait.js';
import { presentError } from '../../../kernel/slack/present.js';
import { updateView } from '../../../kernel/slack/slack-io.js';
import type { Surface } from '../../../kernel/slack/state.js';
import {
  type CourseRequest,
  heldSeatsSentence,
  REQUEST_UNREADABLE_TEXT,
  UnreadableRequestError,
} from '../../../requests/index.js';
import { ASSIGN_TITLE } from '../../blocks/assign-modal.js';
import { buildRecycleConfirmModal, RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import { needsRecycle } from '../../domain/assignment.js';
import type { AssignParams } from '../../services/assign.js';
import { loadRecycleChoice } from '../../services/recycle.js';
import { checkAssignForm } from './assign-checks.js';
import { assignWords, finishChange, runAssign, withNote } from './assign-run.js';
import { type AssignForm, readAssignForm } from './form.js';
import { describeWrite } from './outcome-text.js';
import { notWaiting, seatRefusal } from './request-seat.js';

export function createAssignSubmitHandler(s: Surface) {
  const { deps, state } = s;
  const gate = { need: 'admin' as const, title: ASSIGN_TITLE, audit: { action: 'assign' as const } };
  return onSubmit(s, gate, async ({ ack, body, view, client }): Promise<void> => {
    const actor = body.user.id;
    const meta = assignFormMeta.decode(view.private_metadata);
    const channel = meta?.channelId;
    const requestId = meta?.requestId;
    const form = readAssignForm(view.state);
    const { errors, email, pool, slackName } = await checkAssignForm(deps, client, form, state.snapshots.get(view.id));
    // Opened by "Free a seat…" on a course request: the seat is the requester's, in the request's pool.
    let request: CourseRequest | undefined;
    try {
      request = requestId ? await deps.requests?.service.get(requestId) : undefined;
    } catch (error) {
      if (!(error instanceof UnreadableRequestError)) throw error;
      const headline = REQUEST_UNREADABLE_TEXT;
      await ack({
        response_action: 'update',
        view: buildOutcomeModal({ title: ASSIGN_TITLE, tone: 'refused', headline }),
      });
      return;
    }
    if (requestId && request?.status !== 'approved') {
      await ack({
        response_action: 'update',
        view: buildOutcomeModal({ title: ASSIGN_TITLE, ...notWaiting(request) }),
      });
      return;
    }
    if (request && Object.keys(errors).length === 0) Object.assign(errors, requestFormErrors(request, form, email));
    if (Object.keys(errors).length > 0 || !email || !form.poolId) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    // A name typed in the form wins; else the Slack name of the member picked, or of the member whose
    // e-mail was typed (the checks asked the form for a name when Slack has none: the licensing service
    // would otherwise create the student as "Student").
    const name = form.name ?? slackName;
    const params: AssignParams = {
      poolId: form.poolId,
      email,
      ...(name ? { name } : {}),
      ...(form.endDate && form.endDate !== 'invalid' ? { endDate: form.endDate } : {}),
    };
    if (pool && needsRecycle(pool) && form.recycle) {
      await ack({
        response_action: 'update',
        view: buildWorkingModal(RECYCLE_TITLE, 'Finding the license that would end', limitWait(s.deps)),
      });
      // A repeated delivery of this submission would read the candidates again (about 3 requests).
      if (!(await state.once.claim(`recycle-choice:${view.id}:${view.hash}`))) return;
      return showRecycleChoice(s, client, view.id, pool, params, channel, requestId);
    }
    const working = buildWorkingModal(
      ASSIGN_TITLE,
      `Assigning a license to ${escapeTruncated(email, 254)}`,
      limitWait(s.deps),
    );
    if (!(await state.once.claim(`assign:${view.id}:${params.poolId}:${email.toLowerCase()}`))) {
      // A repeated submission: the first one is at work and will fill in the result.
      await ack({ response_action: 'update', view: working });
      return;
    }
    await ack({ response_action: 'update', view: working });
    const run = { viewId: view.id, actor, channel, title: ASSIGN_TITLE };
    // Seats of the pool on offer from the waitlist are held for their claimants: the admin is told.
    const held = await deps.waitlist?.offers?.held(params.poolId).catch(() => []);
    const note = held ? heldSeatsSentence(held) : undefined;
    if (request) {
      // A seat is free by now: the request's own assign, through its service (never waitlisted meanwhile).
      const how = { kind: 'assign' as const, endDate: params.endDate, pool };
      const outcome = await service(s).freeSeat(request.id, actor, how);
      const told =
        seatRefusal(outcome) ??
        (outcome.kind === 'written' && outcome.result.kind === 'assign'
          ? describeWrite(outcome.result.write, assignWords(outcome.params, pool))
          : notWaiting(request));
      return finishChange(s, client, run, withNote(told, note));
    }
    await runAssign(s, client, run, { params: params, pool, action: 'assign' }, undefined, note);
  });
}

/** The request service, present whenever a form carries a request (its button exists only then). */
function service(s: Surface) {
  const found = s.deps.requests?.service;
  if (!found) throw new Error('course requests are not set up');
  return found;
}

/** The form frees a seat for the request: its pool and its requester's e-mail, or an inline error. */
function requestFormErrors(
  request: CourseRequest,
  form: AssignForm,
  email: string | undefined,
): Record<string, string> {
  const errors: Record<string, string> = {};
  const who = `the requester (${request.requesterEmail})`;
  if (form.poolId !== request.poolId) {
    errors[InputId.assignPool.block] =
      `This form frees a seat for a course request in pool ${request.poolId}: keep that pool, or use /licenses assign for another.`;
  }
  if (email && email.toLowerCase() !== request.requesterEmail.toLowerCase()) {
    const block = form.userId && !form.emailText ? InputId.assignUser.block : InputId.assignEmail.block;
    errors[block] = `This form frees a seat for ${who}: keep their e-mail, or use /licenses assign for someone else.`;
  }
  return errors;
}

async function showRecycleChoice(
  { deps, state }: Surface,
  client: webApi.WebClient,
  viewId: string,
  pool: Pool,
  params: AssignParams,
  channel: string | undefined,
  requestId: string | undefined,
): Promise<void> {
  try {
    const choice = await loadRecycleChoice(deps.licensing, pool.id, deps.now());
    const privateMetadata = pendingAssignMeta.encode({
      channelId: channel,
      poolId: params.poolId,
      email: params.email,
      name: params.name,
      endDate: params.endDate,
      defaultLicenseId: choice.defaultLicense?.id,
      requestId,
    });
    const newStudent = { email: params.email, ...(params.name ? { name: params.name } : {}) };
    state.snapshots.set(viewId, { kind: 'recycle', choice, newStudent });
    await updateView(deps, client, viewId, buildRecycleConfirmModal({ ...choice, newStudent, privateMetadata }));
  } catch (error) {
    const headline = escapeMrkdwn(presentError(error, 'pool', 'admin'));
    await updateView(deps, client, viewId, buildOutcomeModal({ title: RECYCLE_TITLE, tone: 'failed', headline }));
  }
}
