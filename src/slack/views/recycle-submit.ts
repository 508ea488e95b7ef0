/**
 * The recycle confirmation is submitted: the default license goes through the API's own
 * `recycle: true` (one atomic write); another chosen license is revoked first, then the seat
 * assigned. If the assign fails after the revoke, the answer says exactly where things stand and
 * offers "Retry assign". The pool, student and license the confirmation carries
 * back are hints: services/recycle.ts applies every rule to fresh reads before anything is sent.
 */
import { escapeMrkdwn, escapeTruncated } from '../../blocks/mrkdwn.js';
import { buildOutcomeView, buildWorkingView, type Outcome } from '../../blocks/outcome.js';
import { RECYCLE_TITLE } from '../../blocks/recycle-confirm.js';
import type { License } from '../../domain/types.js';
import type { AssignParams } from '../../services/assign.js';
import { type ChosenRecycleResult, recycleChosen } from '../../services/recycle.js';
import { tracked } from '../../services/work-tracker.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { assignWords, finishChange } from './assign-run.js';
import { refuseSubmission, type ViewArgs } from './assign-submit.js';
import { readRecycleChoice } from './form.js';
import { decodeMeta, encodeMeta, type PendingAssign, pendingAssignSchema } from './metadata.js';
import { auditOf, describeWrite, studentFacts, studentWords } from './outcome-text.js';
import { recycleDefault } from './recycle-default.js';
import { recycleRefusalOutcome, refusalDetail } from './refusal-text.js';
import { markedAck, roleOf } from './slack-io.js';
import { changeState } from './state.js';

export function paramsOf(meta: PendingAssign): AssignParams {
  return { poolId: meta.p, email: meta.e, ...(meta.n ? { name: meta.n } : {}), ...(meta.d ? { endDate: meta.d } : {}) };
}

export const EXPIRED = buildOutcomeView({
  title: 'License Desk',
  tone: 'info',
  headline: 'This form has expired or was altered; nothing was changed. Please start again.',
});

export function createRecycleSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: ViewArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const actor = body.user.id;
    const role = await roleOf(deps, client, actor);
    if (role !== 'admin') return refuseSubmission(deps, { ack, body }, RECYCLE_TITLE, 'recycle', role);
    const meta = decodeMeta(pendingAssignSchema, view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: EXPIRED });
      return;
    }
    const chosen = readRecycleChoice(view.state) ?? meta.x;
    const working = buildWorkingView(RECYCLE_TITLE, `Freeing a seat for ${escapeTruncated(meta.e, 254)}`);
    await ack({ response_action: 'update', view: working });
    if (!(await changeState(deps).once.claim(`recycle:${view.id}:${meta.p}:${meta.e.toLowerCase()}`))) return;
    const run = { viewId: view.id, actor, channel: meta.c, pool: undefined, title: RECYCLE_TITLE };
    const params = paramsOf(meta);
    if (chosen === undefined || chosen === meta.x) {
      return recycleDefault(deps, client, run, meta, params);
    }
    let result: ChosenRecycleResult;
    try {
      result = await tracked(deps.work, 'write', `recycle in pool ${params.poolId}`, () =>
        recycleChosen(deps.licensing, chosen, params, deps.now()),
      );
    } catch (error) {
      const headline = `${escapeMrkdwn(presentError(error, 'license', 'admin'))} No license was revoked or assigned.`;
      await finishChange(
        deps,
        client,
        run,
        { tone: 'failed', headline },
        {
          at: deps.now().toISOString(),
          actor,
          action: 'recycle',
          outcome: 'failed',
          poolId: meta.p,
          studentEmail: meta.e,
          detail: `could not read license ${chosen}: ${presentError(error, 'license', 'admin')}`,
        },
      );
      return;
    }
    await reportChosen(deps, client, run, meta, result);
  };
}

async function reportChosen(
  deps: AppDeps,
  client: ViewArgs['client'],
  run: { viewId: string; actor: string; channel: string | undefined; title: string },
  meta: PendingAssign,
  result: ChosenRecycleResult,
): Promise<void> {
  const audit = changeState(deps).audit;
  const now = deps.now();
  const base = { poolId: meta.p, studentEmail: meta.e, ...(meta.n ? { studentName: meta.n } : {}) };
  if (result.stage === 'check') {
    const told = recycleRefusalOutcome(result.refusal, meta.p, meta.e, result.license?.id);
    const entry = { at: now.toISOString(), actor: run.actor, action: 'recycle' as const, outcome: 'refused' as const };
    const detail = refusalDetail(result.refusal);
    const license = result.license ? { licenseId: result.license.id } : {};
    await finishChange(deps, client, run, told, { ...entry, ...base, ...license, detail });
    return;
  }
  if (result.stage === 'revoke') {
    const words = revokeWords(result.license);
    const told = describeWrite(result.outcome, words);
    const outcome: Outcome = { ...told, details: [...(told.details ?? []), 'No license was assigned.'] };
    await finishChange(
      deps,
      client,
      run,
      outcome,
      auditOf('revoke', run.actor, result.outcome, studentFacts(result.license), now, 'license'),
    );
    return;
  }
  const revoked = result.revoked;
  await audit.record(
    auditOf(
      'revoke',
      run.actor,
      { kind: 'done', value: revoked, checked: false },
      studentFacts(revoked),
      now,
      'license',
    ),
  );
  const freed = `Ended license \`${escapeMrkdwn(revoked.id)}\` of ${studentWords(revoked.student)} to free its seat. `;
  const params = paramsOf(meta);
  const entry = auditOf(
    'recycle',
    run.actor,
    result.outcome,
    { ...base, detail: `seat freed by revoking license ${revoked.id}` },
    now,
    'pool',
  );
  if (result.outcome.kind === 'done') {
    const license = result.outcome.value;
    await finishChange(deps, client, run, describeWrite(result.outcome, assignWords(params, result.pool, freed)), {
      ...entry,
      licenseId: license.id,
    });
    return;
  }
  const told = describeWrite(result.outcome, assignWords(params, undefined));
  const headline = `License \`${escapeMrkdwn(revoked.id)}\` of ${studentWords(revoked.student)} *was revoked*, so its seat is free now, but the assign to ${escapeTruncated(meta.e, 254)} did not go through.`;
  const canRetry = result.outcome.kind !== 'unknown';
  const outcome: Outcome = {
    tone: result.outcome.kind === 'unknown' ? 'unknown' : 'failed',
    headline,
    details: [
      `Why: ${told.headline}`,
      ...(told.details ?? []),
      canRetry ? 'Next step: *Retry assign* below gives the free seat to the new student.' : '',
    ].filter((l) => l !== ''),
  };
  const privateMetadata = encodeMeta({ ...meta, x: undefined, r: revoked.id });
  await finishChange(deps, client, run, outcome, entry, { retry: canRetry, privateMetadata });
}

function revokeWords(license: License) {
  return {
    done: () => `Revoked license \`${escapeMrkdwn(license.id)}\`.`,
    notDone: `license \`${escapeMrkdwn(license.id)}\` of ${studentWords(license.student)} was not revoked`,
    check: `\`/licenses show ${escapeMrkdwn(license.id)}\``,
    subject: 'license' as const,
  };
}
