/**
 * The change-end-date form and its past-date confirmation are submitted. Rules first, from the form's
 * snapshot (no licensing call): a date after the pool end or equal to the current end gets an inline
 * error; a date in the past gets a second, explicit confirmation (it ends the license for good,
 * licensing-api.md PATCH rule 3). Then "working", the same rules again on a fresh read of the license
 * (the license id and day came back from the form: hints, never authority), the PATCH, and the result.
 */

import { licenseFacts, studentWords } from '../../../kernel/blocks/change-words.js';
import { InputId } from '../../../kernel/blocks/ids.js';
import { escapeMrkdwn } from '../../../kernel/blocks/mrkdwn.js';
import { buildWorkingModal, type Outcome } from '../../../kernel/blocks/outcome.js';
import { endDateFormMeta, pastEndDateMeta } from '../../../kernel/blocks/values.js';
import { classifyNewEndDate, dayText, today } from '../../../kernel/domain/end-date.js';
import { type MarkedSubmitArgs, onSubmit } from '../../../kernel/slack/gate.js';
import { limitWait } from '../../../kernel/slack/limit-wait.js';
import { presentError } from '../../../kernel/slack/present.js';
import { changeContext, type Surface } from '../../../kernel/slack/state.js';
import { buildPastDateConfirmView, EXTEND_TITLE, extendNothingPickedText } from '../../blocks/extend-modal.js';
import { endDateRefusalOutcome } from '../../blocks/refusal-text.js';
import { changeLicenseEndDate, type EndDateOutcome } from '../../services/change-end-date.js';
import { finishChange } from './assign-run.js';
import { readExtendForm } from './form.js';
import { describeWrite, metadataOrExpired } from './outcome-text.js';

const DATE_BLOCK = InputId.extendDate.block;

const gate = { need: 'admin' as const, title: EXTEND_TITLE, audit: { action: 'extend' as const } };

export function createExtendSubmitHandler(s: Surface) {
  const { deps } = s;
  return onSubmit(s, gate, async ({ ack, body, view, client }): Promise<void> => {
    const actor = body.user.id;
    const meta = await metadataOrExpired(endDateFormMeta, view.private_metadata, ack);
    if (!meta) return;
    const form = readExtendForm(view.state);
    const now = deps.now();
    if (form.date === 'invalid')
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'That is not a date.' } });
    if (form.date && form.quick && form.date !== form.quick) {
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'Pick a quick choice or a date, not both.' } });
    }
    const snap = s.state.snapshots.get(view.id);
    const known = snap?.kind === 'extend' && snap.license.id === meta.licenseId ? snap : undefined;
    const day = form.date ?? form.quick;
    if (!day) {
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: extendNothingPickedText(known, now) } });
    }
    const kind = known
      ? classifyNewEndDate(day, known.license, known.pool, now).kind
      : day < today(now)
        ? 'past'
        : 'move';
    if (kind === 'after-pool-end' && known) {
      return ack({
        response_action: 'errors',
        errors: {
          [DATE_BLOCK]: `That is after the pool ends (${dayText(known.pool.end)}); pick ${dayText(known.pool.end)} or earlier.`,
        },
      });
    }
    if (kind === 'unchanged') {
      return ack({ response_action: 'errors', errors: { [DATE_BLOCK]: 'The license already ends on that day.' } });
    }
    if (kind === 'past') {
      const privateMetadata = pastEndDateMeta.encode({
        channelId: meta.channelId,
        licenseId: meta.licenseId,
        endDate: day,
      });
      const confirm = buildPastDateConfirmView({
        licenseId: meta.licenseId,
        license: known?.license,
        pool: known?.pool,
        day,
        privateMetadata,
      });
      // Pushed over the form: its Cancel goes back to the form as it was filled in.
      return ack({ response_action: 'push', view: confirm });
    }
    const run = { viewId: view.id, actor, channel: meta.channelId, licenseId: meta.licenseId, day };
    await runExtend(s, { ack, client }, run);
  });
}

export function createPastConfirmSubmitHandler(s: Surface) {
  return onSubmit(s, gate, async ({ ack, body, view, client }): Promise<void> => {
    const meta = await metadataOrExpired(pastEndDateMeta, view.private_metadata, ack);
    if (!meta) return;
    const { channelId: channel, licenseId, endDate: day } = meta;
    // The confirmation lies over the form: the working view and the result replace it, and close both.
    const run = { viewId: view.id, actor: body.user.id, channel, licenseId, day, stacked: true };
    await runExtend(s, { ack, client }, run);
  });
}

interface ExtendRun {
  viewId: string;
  actor: string;
  channel: string | undefined;
  licenseId: string;
  day: string;
  stacked?: boolean;
}

async function runExtend(
  s: Surface,
  { ack, client }: Pick<MarkedSubmitArgs, 'ack' | 'client'>,
  run: ExtendRun,
): Promise<void> {
  const now = s.deps.now();
  const past = run.day < today(now);
  const id = escapeMrkdwn(run.licenseId);
  const working = buildWorkingModal(
    EXTEND_TITLE,
    past ? `Ending license \`${id}\` now` : `Moving the end of license \`${id}\` to ${dayText(run.day)}`,
    limitWait(s.deps),
  );
  await ack({ response_action: 'update', view: run.stacked ? { ...working, clear_on_close: true } : working });
  if (!(await s.state.once.claim(`extend:${run.viewId}:${run.licenseId}:${run.day}`))) return;
  const outcome = await changeLicenseEndDate(changeContext(s), {
    actor: run.actor,
    licenseId: run.licenseId,
    endDate: run.day,
  });
  await finishChange(s, client, { ...run, title: EXTEND_TITLE }, endDateOutcomeText(outcome, run.licenseId));
}

/** The sentence for the person, from the use case's outcome. */
function endDateOutcomeText(outcome: EndDateOutcome, licenseId: string): Outcome {
  const id = escapeMrkdwn(licenseId);
  switch (outcome.kind) {
    case 'unread': {
      const headline = `${escapeMrkdwn(presentError(outcome.error, 'license', 'admin'))} The end date was not changed.`;
      return { tone: 'failed', headline };
    }
    case 'refused':
      return endDateRefusalOutcome(outcome.refusal, licenseId);
    case 'written':
      return describeWrite(outcome.write, {
        done: (license) =>
          outcome.past
            ? `Ended license \`${id}\` of ${studentWords(license.student)} now; it can't be edited again.`
            : `Moved the end of ${licenseFacts(license, outcome.pool)} (it was ${dayText(outcome.license.end)}), of ${studentWords(license.student)}.`,
        notDone: `the end of license \`${id}\` did not change`,
        check: `\`/licenses show ${id}\``,
        subject: 'license',
      });
  }
}
