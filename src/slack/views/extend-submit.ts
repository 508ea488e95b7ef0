/**
 * The change-end-date form and its past-date confirmation are submitted. Rules first, from the form's
 * snapshot (no licensing call): a date after the pool end or equal to the current end gets an inline
 * error; a date in the past gets a second, explicit confirmation (it ends the license for good,
 * licensing-api.md PATCH rule 3). Then "working", the same rules again on a fresh read of the license
 * (the license id and day came back from the form: hints, never authority), the PATCH, and the result.
 */
import { buildPastDateConfirmView, EXTEND_TITLE, endDateBlockerText } from '../../blocks/extend-modal.js';
import { InputId } from '../../blocks/ids.js';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import { buildWorkingView, type Outcome } from '../../blocks/outcome.js';
import { classifyNewEndDate, dayOf, today } from '../../domain/end-date.js';
import { changeEndDate, checkEndDateChange, type EndDateRefusal } from '../../services/change-end-date.js';
import { tracked } from '../../services/work-tracker.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { finishChange } from './assign-run.js';
import { refuseSubmission, type ViewArgs } from './assign-submit.js';
import { readExtendForm } from './form.js';
import { decodeMeta, encodeMeta, extendMetaSchema, pastConfirmMetaSchema } from './metadata.js';
import { auditOf, describeWrite, licenseFacts, studentFacts, studentWords } from './outcome-text.js';
import { EXPIRED } from './recycle-submit.js';
import { markedAck, roleOf } from './slack-io.js';
import { changeState } from './state.js';

const DATE_BLOCK = InputId.extendDate.block;

export function createExtendSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: ViewArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const actor = body.user.id;
    const role = await roleOf(deps, client, actor);
    if (role !== 'admin') return refuseSubmission(deps, { ack, body }, EXTEND_TITLE, 'extend', role);
    const meta = decodeMeta(extendMetaSchema, view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: EXPIRED });
      return;
    }
    const form = readExtendForm(view.state);
    const now = deps.now();
    if (form.date === 'invalid')
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'That is not a date.' } });
    if (form.date && form.quick && form.date !== form.quick) {
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'Pick a quick choice or a date, not both.' } });
    }
    const day = form.date ?? form.quick;
    if (!day) return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'Pick a quick choice or a date.' } });
    const snap = changeState(deps).snapshots.get(view.id);
    const known = snap?.kind === 'extend' && snap.license.id === meta.l ? snap : undefined;
    const kind = known
      ? classifyNewEndDate(day, known.license, known.pool, now).kind
      : day < today(now)
        ? 'past'
        : 'move';
    if (kind === 'after-pool-end' && known) {
      return ack({
        response_action: 'errors',
        errors: {
          [DATE_BLOCK]: `That is after the pool ends (${dayOf(known.pool.end)}); pick ${dayOf(known.pool.end)} or earlier.`,
        },
      });
    }
    if (kind === 'unchanged') {
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'The license already ends on that day.' } });
    }
    if (kind === 'past') {
      const privateMetadata = encodeMeta({ ...(meta.c ? { c: meta.c } : {}), l: meta.l, d: day });
      const confirm = buildPastDateConfirmView({
        licenseId: meta.l,
        license: known?.license,
        pool: known?.pool,
        day,
        privateMetadata,
      });
      return ack({ response_action: 'update', view: confirm });
    }
    await runExtend(deps, { ack, client }, { viewId: view.id, actor, channel: meta.c, licenseId: meta.l, day });
  };
}

export function createPastConfirmSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: ViewArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const actor = body.user.id;
    const role = await roleOf(deps, client, actor);
    if (role !== 'admin') return refuseSubmission(deps, { ack, body }, EXTEND_TITLE, 'extend', role);
    const meta = decodeMeta(pastConfirmMetaSchema, view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'update', view: EXPIRED });
      return;
    }
    await runExtend(deps, { ack, client }, { viewId: view.id, actor, channel: meta.c, licenseId: meta.l, day: meta.d });
  };
}

interface ExtendRun {
  viewId: string;
  actor: string;
  channel: string | undefined;
  licenseId: string;
  day: string;
}

async function runExtend(
  deps: AppDeps,
  { ack, client }: Pick<ViewArgs, 'ack' | 'client'>,
  run: ExtendRun,
): Promise<void> {
  const now = deps.now();
  const past = run.day < today(now);
  const id = escapeMrkdwn(run.licenseId);
  await ack({
    response_action: 'update',
    view: buildWorkingView(
      EXTEND_TITLE,
      past ? `Ending license \`${id}\` now` : `Moving the end of license \`${id}\` to ${run.day}`,
    ),
  });
  if (!(await changeState(deps).once.claim(`extend:${run.viewId}:${run.licenseId}:${run.day}`))) return;
  // The license id and the day came back from the form: its rules are applied to fresh reads first.
  const title = { ...run, title: EXTEND_TITLE };
  const base = { at: now.toISOString(), actor: run.actor, action: 'extend' as const, licenseId: run.licenseId };
  let checked: Awaited<ReturnType<typeof checkEndDateChange>>;
  try {
    checked = await checkEndDateChange(deps.licensing, run.licenseId, run.day, now);
  } catch (error) {
    const why = presentError(error, 'license', 'admin');
    const headline = `${escapeMrkdwn(why)} The end date was not changed.`;
    const entry = { ...base, outcome: 'failed' as const, detail: `could not re-check the license: ${why}` };
    return finishChange(deps, client, title, { tone: 'failed', headline }, entry);
  }
  if (checked.refusal) {
    const outcome = endDateRefusalOutcome(checked.refusal, run.licenseId);
    const detail = `${checked.refusal.kind}: refused on a fresh read; nothing sent (end date ${run.day})`;
    const entry = { ...base, ...studentFacts(checked.license), outcome: 'refused' as const, detail };
    return finishChange(deps, client, title, outcome, entry);
  }
  const result = await tracked(deps.work, 'write', `extend license ${run.licenseId}`, () =>
    changeEndDate(deps.licensing, run.licenseId, run.day, now),
  );
  const outcome = describeWrite(result, {
    done: (license) =>
      past
        ? `Ended license \`${id}\` of ${studentWords(license.student)} now; it can't be edited again.`
        : `Moved the end of ${licenseFacts(license, checked.pool)}, of ${studentWords(license.student)}.`,
    notDone: `the end of license \`${id}\` did not change`,
    check: `\`/licenses show ${id}\``,
    subject: 'license',
  });
  const license = result.kind === 'done' ? result.value : checked.license;
  const facts = license ? studentFacts(license) : { licenseId: run.licenseId };
  const detail = past ? `end date ${run.day} (in the past: ends the license now)` : `end date ${run.day}`;
  const entry = auditOf('extend', run.actor, result, { ...facts, detail }, now, 'license');
  await finishChange(deps, client, title, outcome, entry);
}

function endDateRefusalOutcome(refusal: EndDateRefusal, licenseId: string): Outcome {
  const id = `\`${escapeMrkdwn(licenseId)}\``;
  const why =
    refusal.kind === 'after-pool-end'
      ? `that day is after the pool ends (${dayOf(refusal.poolEnd)})`
      : refusal.kind === 'unchanged'
        ? 'the license already ends on that day'
        : endDateBlockerText(refusal.kind);
  return {
    tone: 'refused',
    headline: `The end date of license ${id} can't be changed, because ${why}. Nothing was changed.`,
    details: [`\`/licenses show ${escapeMrkdwn(licenseId)}\` shows it as it is now.`],
  };
}
