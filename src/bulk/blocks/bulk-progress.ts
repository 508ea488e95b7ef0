/**
 * The bulk job's direct messages: one progress message, updated in place, and at the end
 * the result of each line, in thread replies of ~100 lines each (a message renders ~12k characters).
 * The DM is the requester's own, so e-mails may appear. Pure.
 */

import { sectionsOf } from '../../home/index.js';
import { context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { availabilityBar, escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { BulkJob, JobRow, RowOutcome } from '../domain/bulk-job.js';
import { VERDICT_TEXT } from './bulk-report.js';

const OUTCOME_TEXT: Record<RowOutcome, string> = {
  assigned: ':white_check_mark: assigned',
  'already-enrolled': ':ballot_box_with_check: already enrolled',
  refused: ':no_entry_sign: refused',
  failed: ':x: failed',
  unknown: ':grey_question: unknown',
  skipped: ':fast_forward: not sent',
};

export const RESULT_LINES_PER_MESSAGE = 40;

const count = (job: BulkJob, outcome: RowOutcome) => job.rows.filter((r) => r.outcome === outcome).length;

function title(job: BulkJob): string {
  return `*${escapeTruncated(job.courseTitle, 100)}* · pool \`${escapeMrkdwn(job.poolId)}\``;
}

function tally(job: BulkJob): string {
  return (Object.keys(OUTCOME_TEXT) as RowOutcome[])
    .map((o) => [o, count(job, o)] as const)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${OUTCOME_TEXT[o]}: ${n}`)
    .join(' · ');
}

export function buildBulkProgressMessage(job: BulkJob): SlackMessage {
  const done = job.rows.filter((r) => r.state === 'done').length;
  const total = job.rows.length;
  const finished = job.state === 'done';
  const head = finished
    ? `:checkered_flag: Bulk assignment finished: ${count(job, 'assigned')} of ${total} assigned`
    : `:hourglass_flowing_sand: Bulk assignment running: ${done} of ${total} done`;
  const notSent =
    job.notSent.length > 0
      ? `\n${job.notSent.length} line${job.notSent.length === 1 ? '' : 's'} left out by the check.`
      : '';
  return {
    text: head.replace(/^:[a-z_]+: /, ''),
    blocks: [
      section(
        `${head}\n${title(job)}\n\`${availabilityBar(done, Math.max(1, total))}\` ${tally(job) || 'starting'}${notSent}`,
      ),
      context(
        finished
          ? 'The result of each line is in the thread.'
          : 'Runs at the licensing rate limit as background work; this message updates every few seconds. It continues after a restart.',
      ),
    ],
  };
}

function rowLine(r: JobRow): string {
  const who = `${r.name ? `${escapeTruncated(r.name, 50)} · ` : ''}${escapeTruncated(r.email, 80)}`;
  const id = r.licenseId ? ` · license \`${escapeMrkdwn(r.licenseId)}\`` : '';
  const detail = r.detail ? ` · _${escapeTruncated(r.detail, 120)}_` : '';
  const recovered = r.recovered ? ' (confirmed by reading back)' : '';
  return `${r.line}. ${OUTCOME_TEXT[r.outcome ?? 'unknown']}${recovered} · ${who}${id}${detail}`;
}

/** Every line of the list in order: the job's rows and those the dry run left out. */
export function buildBulkResultMessages(job: BulkJob): SlackMessage[] {
  const lines = [
    ...job.rows.map((r) => ({ line: r.line, text: rowLine(r) })),
    ...job.notSent.map((r) => ({
      line: r.line,
      text: `${r.line}. ${VERDICT_TEXT[r.verdict as keyof typeof VERDICT_TEXT] ?? escapeMrkdwn(r.verdict)}, not sent · ${escapeTruncated(r.email, 80)}`,
    })),
  ]
    .sort((a, b) => a.line - b.line)
    .map((l) => l.text);
  const messages: SlackMessage[] = [];
  for (let i = 0; i < lines.length; i += RESULT_LINES_PER_MESSAGE) {
    const part = lines.slice(i, i + RESULT_LINES_PER_MESSAGE);
    messages.push({ text: `Bulk assignment results, lines ${i + 1}–${i + part.length}`, blocks: sectionsOf(part) });
  }
  return messages;
}
