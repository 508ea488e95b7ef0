/**
 * The dry run, shown before anything is written: each row's verdict, seats needed against
 * seats free, and, when the pool must free seats, a checkbox that names how many licenses will end
 * and whose. Submitting starts the job. Pure.
 */

import { BulkInputId, DeskCallbackId } from '../../kernel/blocks/ids.js';
import { type Block, context, divider, section } from '../../kernel/blocks/kit.js';
import { compactView, input, type ModalView, modal, option } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { BulkDraft, PlannedRow, RowVerdict } from '../domain/bulk-plan.js';
import { BULK_TITLE } from './bulk-form.js';

export const VERDICT_TEXT: Record<RowVerdict, string> = {
  ready: ':white_check_mark: ready',
  'invalid-email': ':x: invalid e-mail',
  'domain-not-allowed': ':no_entry_sign: domain not allowed',
  'already-enrolled': ':ballot_box_with_check: already enrolled',
  duplicate: ':repeat: duplicate in the list',
};

const ORDER: RowVerdict[] = ['ready', 'invalid-email', 'domain-not-allowed', 'already-enrolled', 'duplicate'];
/** Rows listed per verdict (a line is at most ~140 characters): a modal renders ~12k characters. */
const MAX_LISTED: Record<RowVerdict, number> = {
  ready: 10,
  'invalid-email': 15,
  'domain-not-allowed': 15,
  'already-enrolled': 15,
  duplicate: 15,
};

const rowLine = (r: PlannedRow) =>
  `${r.line}. ${r.name ? `${escapeTruncated(r.name, 50)} · ` : ''}${escapeTruncated(r.email || r.raw, 80)}`;

function verdictBlocks(rows: PlannedRow[], verdict: RowVerdict): Block[] {
  const these = rows.filter((r) => r.verdict === verdict);
  if (these.length === 0) return [];
  const lines = these.slice(0, MAX_LISTED[verdict]).map(rowLine);
  const more = these.length - lines.length;
  const blocks: Block[] = [section(`*${VERDICT_TEXT[verdict]}* · ${these.length}\n${lines.join('\n')}`)];
  if (more > 0) blocks.push(context(`and ${more} more`));
  return blocks;
}

/** `problem`: why the last press of Assign started nothing (plain text, escaped here); the report stays to retry. */
export function buildBulkReportModal(draft: BulkDraft, problem?: string): ModalView {
  const { plan, pool } = draft;
  const counts = ORDER.map((v) => `${VERDICT_TEXT[v]}: ${plan.rows.filter((r) => r.verdict === v).length}`).join(' · ');
  const seats = `*Seats:* ${plan.ready} needed · ${plan.seatsFree} free in the pool`;
  const head = [
    section(
      `*${escapeTruncated(pool.course.title, 100)}* · pool \`${escapeMrkdwn(pool.id)}\`${draft.endDate ? ` · licenses end ${dayText(draft.endDate)}` : ` · licenses end with the pool (${dayText(pool.end)})`}\n${counts}\n${seats}`,
    ),
  ];
  const canStart = plan.ready > 0 && plan.seats !== 'blocked';
  let gate: Block[] | undefined;
  if (plan.seats === 'blocked')
    gate = [section(`:no_entry: ${escapeMrkdwn(plan.blockedReason ?? 'Not enough seats.')}`)];
  if (plan.ready === 0) gate = [section(':information_source: No line is ready to assign: nothing would change.')];
  const recycle =
    canStart && plan.seats === 'recycle'
      ? [
          section(
            `:warning: The pool is ${plan.shortfall} seat${plan.shortfall === 1 ? '' : 's'} short. Recycling ends the ${plan.shortfall} oldest license${plan.shortfall === 1 ? '' : 's'} of the pool; these students lose access:\n${plan.toFree
              .slice(0, 30)
              .map((l) => `• ${escapeTruncated(l.student.name, 60)} (since ${dayText(l.start)})`)
              .join('\n')}${plan.toFree.length > 30 ? `\n• and ${plan.toFree.length - 30} more` : ''}`,
          ),
          input(BulkInputId.recycle.block, 'Free seats', {
            type: 'checkboxes',
            action_id: BulkInputId.recycle.action,
            options: [
              option(
                `Yes, end ${plan.shortfall} license${plan.shortfall === 1 ? '' : 's'} to free ${plan.shortfall} seat${plan.shortfall === 1 ? '' : 's'}`,
                `free:${plan.shortfall}`,
              ),
            ],
          }),
        ]
      : undefined;
  return modal({
    callbackId: DeskCallbackId.bulkConfirm,
    title: BULK_TITLE,
    privateMetadata: draft.id,
    ...(canStart ? { submit: `Assign ${plan.ready}`, close: 'Cancel' } : { close: 'Close' }),
    blocks: compactView([
      problem ? section(`:x: ${escapeMrkdwn(problem)} Nothing was started; you can press Assign again.`) : undefined,
      ...head,
      ...(gate ?? []),
      ...(recycle ?? []),
      divider(),
      ...ORDER.flatMap((v) => verdictBlocks(plan.rows, v)),
      canStart
        ? context('The job runs in the background at the licensing rate limit; a direct message shows its progress.')
        : undefined,
    ]),
  });
}
