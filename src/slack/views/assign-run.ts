/**
 * Runs one assign after its form passed (or after a recycle confirmation, or a Retry click): the
 * write, the result in the modal, the one-sentence reply and the audit entry.
 */
import type { webApi } from '@slack/bolt';
import { escapeTruncated, slackDate } from '../../blocks/mrkdwn.js';
import { buildOutcomeView, type Outcome } from '../../blocks/outcome.js';
import type { License, Pool } from '../../domain/types.js';
import { type AssignParams, assignLicense } from '../../services/assign.js';
import type { AuditEntry } from '../../services/audit.js';
import { tracked } from '../../services/work-tracker.js';
import type { WriteOutcome } from '../../services/write-outcome.js';
import type { AppDeps } from '../deps.js';
import { auditOf, describeWrite, licenseName, studentWords } from './outcome-text.js';
import { replyEphemeral, tellByDm, updateView } from './slack-io.js';
import { changeState } from './state.js';

export interface AssignRun {
  viewId: string;
  actor: string;
  channel: string | undefined;
  params: AssignParams;
  /** The pool as the form saw it, for its course title; undefined without a snapshot. */
  pool: Pool | undefined;
  action: AuditEntry['action'];
  title: string;
  /** Extra words for the audit entry (e.g. which license was revoked to free the seat). */
  detail?: string;
  /** Recycle: the sentence naming the license that ended, put before "Assigned …" on success. */
  freed?: string;
}

export function assignWords(params: AssignParams, pool: Pool | undefined, freed?: string) {
  const email = escapeTruncated(params.email, 254);
  return {
    done: (license: License) =>
      `${freed ?? ''}Assigned ${licenseName(license, pool)} to ${studentWords({ name: license.student.name, email: params.email })}; it ends ${slackDate(license.end)}.`,
    notDone: `no license was assigned to ${email}`,
    check: `\`/licenses find ${email}\``,
    subject: 'pool' as const,
  };
}

export async function finishChange(
  deps: AppDeps,
  client: webApi.WebClient,
  run: { viewId: string; actor: string; channel: string | undefined; title: string },
  outcome: Outcome,
  entry: AuditEntry,
  extra: { retry?: boolean; privateMetadata?: string } = {},
): Promise<void> {
  // The entry reaches the log and the audit file without waiting for Slack: a stop that ends the
  // process soon after (docs/shutdown.md) must not lose it when Slack is slow or unreachable.
  const audited = changeState(deps).audit.record(entry);
  const shown = await updateView(
    deps,
    client,
    run.viewId,
    buildOutcomeView({ ...outcome, title: run.title, ...extra }),
  );
  const sentence = { tone: outcome.tone, headline: outcome.headline };
  const replied = await replyEphemeral(deps, client, run.channel, run.actor, sentence);
  // The modal was closed (views.update: not_found) and no channel reply reached them: a DM does.
  if (!shown && !replied) await tellByDm(deps, client, run.actor, sentence);
  await audited;
}

export async function runAssign(
  deps: AppDeps,
  client: webApi.WebClient,
  run: AssignRun,
): Promise<WriteOutcome<License>> {
  const result = await tracked(deps.work, 'write', `${run.action} in pool ${run.params.poolId}`, () =>
    assignLicense(deps.licensing, run.params),
  );
  const outcome = describeWrite(result, assignWords(run.params, run.pool, run.freed));
  const license = result.kind === 'done' ? result.value : undefined;
  const entry = auditOf(
    run.action,
    run.actor,
    result,
    {
      poolId: run.params.poolId,
      ...(license ? { licenseId: license.id } : {}),
      ...(run.pool ? { courseTitle: run.pool.course.title } : {}),
      ...(license?.student.name || run.params.name ? { studentName: license?.student.name ?? run.params.name } : {}),
      studentEmail: run.params.email,
      ...(run.detail ? { detail: run.detail } : {}),
    },
    deps.now(),
    'pool',
  );
  await finishChange(deps, client, run, outcome, entry);
  return result;
}
