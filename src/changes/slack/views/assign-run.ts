/**
 * The Slack side of a change made from a modal: the result in the modal, the one-sentence reply in
 * the channel and, when neither reached the person, a DM. The use case (services/) has made the write
 * and recorded the audit entry before this runs.
 */

import type { webApi } from '@slack/bolt';
import { licenseName, studentWords } from '../../../kernel/blocks/change-words.js';
import { dayText, escapeTruncated } from '../../../kernel/blocks/mrkdwn.js';
import { buildOutcomeModal, type Outcome } from '../../../kernel/blocks/outcome.js';
import type { License, Pool } from '../../../kernel/domain/types.js';
import type { WriteOutcome } from '../../../kernel/services/writes/outcome.js';
import { tellByDm } from '../../../kernel/slack/notices.js';
import { replyEphemeral, updateView } from '../../../kernel/slack/slack-io.js';
import { changeContext, type Surface } from '../../../kernel/slack/state.js';
import { type AssignCall, type AssignParams, assign } from '../../services/assign.js';
import { describeWrite } from './outcome-text.js';

/** Where the result of a change goes: the modal, and the channel it was started from. */
export interface ChangeRun {
  viewId: string;
  actor: string;
  channel: string | undefined;
  title: string;
  /** The view is pushed over the form it came from (the past-date confirmation). */
  stacked?: boolean;
}

export function assignWords(params: AssignParams, pool: Pool | undefined, freed?: string) {
  const email = escapeTruncated(params.email, 254);
  return {
    done: (license: License) =>
      `${freed ?? ''}Assigned ${licenseName(license, pool)} to ${studentWords({ name: license.student.name, email: params.email })}; it ends ${dayText(license.end)}.`,
    notDone: `no license was assigned to ${email}`,
    check: `\`/licenses find ${email}\``,
    subject: 'pool' as const,
  };
}

/** The outcome with one more line (a warning the admin should read beside it), when there is one. */
export function withNote(outcome: Outcome, note: string | undefined): Outcome {
  return note ? { ...outcome, details: [...(outcome.details ?? []), note] } : outcome;
}

export async function finishChange(
  s: Surface,
  client: webApi.WebClient,
  run: ChangeRun,
  outcome: Outcome,
  extra: { retry?: boolean; privateMetadata?: string } = {},
): Promise<void> {
  const { deps } = s;
  const view = buildOutcomeModal({ ...outcome, title: run.title, ...extra });
  // Shown over a form (a pushed confirmation): closing the result closes the form under it too.
  const shown = await updateView(deps, client, run.viewId, run.stacked ? { ...view, clear_on_close: true } : view);
  const sentence = { tone: outcome.tone, headline: outcome.headline };
  const replied = await replyEphemeral(deps, client, run.channel, run.actor, sentence);
  // The modal was closed (views.update: not_found) and no channel reply reached them: a DM does.
  if (!shown && !replied) await tellByDm(deps, client, run.actor, sentence);
}

/** One assign (services/assign.ts) and its result, for the form and a confirmed default recycle. */
export async function runAssign(
  s: Surface,
  client: webApi.WebClient,
  run: ChangeRun,
  call: Omit<AssignCall, 'actor'>,
  freed?: string,
  note?: string,
): Promise<WriteOutcome<License>> {
  const write = await assign(changeContext(s), { ...call, actor: run.actor });
  const told = describeWrite(write, assignWords(call.params, call.pool, freed));
  await finishChange(s, client, run, withNote(told, note));
  return write;
}
