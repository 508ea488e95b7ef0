/**
 * The recycle confirmation is submitted: the default license goes through the API's own
 * `recycle: true` (one atomic write, services/recycle.ts recycleDefaultSeat); another chosen license
 * is revoked first, then the seat assigned (recycleChosenSeat). If the assign fails after the revoke,
 * the answer says exactly where things stand and offers "Retry assign". The pool, student and license
 * the confirmation carries back are hints: the use cases apply every rule to fresh reads first.
 */
import type { webApi } from '@slack/bolt';
import { studentWords } from '../../../kernel/blocks/change-words.js';
import { escapeMrkdwn, escapeTruncated } from '../../../kernel/blocks/mrkdwn.js';
import { buildWorkingModal, type Outcome } from '../../../kernel/blocks/outcome.js';
import { type PendingAssignMeta, pendingAssignMeta } from '../../../kernel/blocks/values.js';
import type { License } from '../../../kernel/domain/types.js';
import { onSubmit } from '../../../kernel/slack/gate.js';
import { limitWait } from '../../../kernel/slack/limit-wait.js';
import { presentError } from '../../../kernel/slack/present.js';
import { changeContext, type Surface } from '../../../kernel/slack/state.js';
import { RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import { recycleRefusalOutcome } from '../../blocks/refusal-text.js';
import type { AssignParams } from '../../services/assign.js';
import {
  type RecycleChosenOutcome,
  type RecycleDefaultOutcome,
  recycleChosenSeat,
  recycleDefaultSeat,
} from '../../services/recycle.js';
import { assignWords, type ChangeRun, finishChange } from './assign-run.js';
import { readRecycleChoice } from './form.js';
import { describeWrite, metadataOrExpired } from './outcome-text.js';
import { notWaiting, seatRefusal } from './request-seat.js';

export function paramsOf(meta: PendingAssignMeta): AssignParams {
  return {
    poolId: meta.poolId,
    email: meta.email,
    ...(meta.name ? { name: meta.name } : {}),
    ...(meta.endDate ? { endDate: meta.endDate } : {}),
  };
}

const freedText = (license: License) =>
  `Ended license \`${escapeMrkdwn(license.id)}\` of ${studentWords(license.student)} to free its seat. `;

export function createRecycleSubmitHandler(s: Surface) {
  const gate = { need: 'admin' as const, title: RECYCLE_TITLE, audit: { action: 'recycle' as const } };
  return onSubmit(s, gate, async ({ ack, body, view, client }): Promise<void> => {
    const actor = body.user.id;
    const meta = await metadataOrExpired(pendingAssignMeta, view.private_metadata, ack);
    if (!meta) return;
    const chosen = readRecycleChoice(view.state) ?? meta.defaultLicenseId;
    const working = buildWorkingModal(
      RECYCLE_TITLE,
      `Freeing a seat for ${escapeTruncated(meta.email, 254)}`,
      limitWait(s.deps),
    );
    await ack({ response_action: 'update', view: working });
    if (!(await s.state.once.claim(`recycle:${view.id}:${meta.poolId}:${meta.email.toLowerCase()}`))) return;
    const run = { viewId: view.id, actor, channel: meta.channelId, title: RECYCLE_TITLE };
    const service = s.deps.requests?.service;
    if (meta.requestId && service) {
      // A course request's seat: through its service, which holds the request 'assigning' meanwhile.
      const how =
        chosen === undefined || chosen === meta.defaultLicenseId
          ? ({ kind: 'default', named: meta.defaultLicenseId, endDate: meta.endDate } as const)
          : ({ kind: 'chosen', licenseId: chosen, endDate: meta.endDate } as const);
      const outcome = await service.freeSeat(meta.requestId, actor, how);
      const refused = seatRefusal(outcome);
      if (refused || outcome.kind !== 'written') return finishChange(s, client, run, refused ?? notWaiting(undefined));
      const sent = { ...meta, ...outcome.params };
      if (outcome.result.kind === 'default')
        return finishChange(s, client, run, defaultOutcomeText(outcome.result.outcome, sent));
      if (outcome.result.kind === 'chosen') return reportChosen(s, client, run, sent, outcome.result.outcome);
      return;
    }
    const params = paramsOf(meta);
    const ctx = changeContext(s);
    if (chosen === undefined || chosen === meta.defaultLicenseId) {
      const outcome = await recycleDefaultSeat(ctx, { actor, params, defaultLicenseId: meta.defaultLicenseId });
      return finishChange(s, client, run, defaultOutcomeText(outcome, meta));
    }
    const outcome = await recycleChosenSeat(ctx, { actor, params, chosenLicenseId: chosen });
    await reportChosen(s, client, run, meta, outcome);
  });
}

function defaultOutcomeText(outcome: RecycleDefaultOutcome, meta: PendingAssignMeta): Outcome {
  switch (outcome.kind) {
    case 'unread': {
      const why = presentError(outcome.error, 'pool', 'admin');
      const headline = `${escapeMrkdwn(why)} Nothing was changed: I could not check which license would end.`;
      return { tone: 'failed', headline };
    }
    case 'refused':
      return recycleRefusalOutcome(outcome.refusal, meta.poolId, meta.email, outcome.license?.id);
    case 'written':
      return describeWrite(
        outcome.write,
        assignWords({ ...paramsOf(meta), recycle: true }, outcome.pool, freedText(outcome.pick)),
      );
  }
}

async function reportChosen(
  s: Surface,
  client: webApi.WebClient,
  run: ChangeRun,
  meta: PendingAssignMeta,
  result: RecycleChosenOutcome,
): Promise<void> {
  if (result.kind === 'unread') {
    const why = escapeMrkdwn(presentError(result.error, 'license', 'admin'));
    return finishChange(s, client, run, { tone: 'failed', headline: `${why} No license was revoked or assigned.` });
  }
  if (result.kind === 'refused') {
    const told = recycleRefusalOutcome(result.refusal, meta.poolId, meta.email, result.license?.id);
    return finishChange(s, client, run, told);
  }
  if (result.kind === 'not-freed') {
    const told = describeWrite(result.write, revokeWords(result.license));
    return finishChange(s, client, run, { ...told, details: [...(told.details ?? []), 'No license was assigned.'] });
  }
  const { revoked, write } = result;
  const params = paramsOf(meta);
  if (write.kind === 'done') {
    return finishChange(s, client, run, describeWrite(write, assignWords(params, result.pool, freedText(revoked))));
  }
  const told = describeWrite(write, assignWords(params, undefined));
  const headline = `License \`${escapeMrkdwn(revoked.id)}\` of ${studentWords(revoked.student)} *was revoked*, so its seat is free now, but the assign to ${escapeTruncated(meta.email, 254)} did not go through.`;
  const canRetry = write.kind !== 'unknown';
  const outcome: Outcome = {
    tone: write.kind === 'unknown' ? 'unknown' : 'failed',
    headline,
    details: [
      `Why: ${told.headline}`,
      ...(told.details ?? []),
      canRetry ? 'Next step: *Retry assign* below gives the free seat to the new student.' : '',
    ].filter((l) => l !== ''),
  };
  const privateMetadata = pendingAssignMeta.encode({
    ...meta,
    defaultLicenseId: undefined,
    revokedLicenseId: revoked.id,
  });
  await finishChange(s, client, run, outcome, { retry: canRetry, privateMetadata });
}

function revokeWords(license: License) {
  return {
    done: () => `Revoked license \`${escapeMrkdwn(license.id)}\`.`,
    notDone: `license \`${escapeMrkdwn(license.id)}\` of ${studentWords(license.student)} was not revoked`,
    check: `\`/licenses show ${escapeMrkdwn(license.id)}\``,
    subject: 'license' as const,
  };
}
