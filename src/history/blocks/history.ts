/**
 * `/licenses history`: one page of audit entries about a student, a member, a license or a pool,
 * newest first, ten a page with Previous / Next and Export (the whole history as a CSV in a DM). Each
 * entry: what (plain words), how it ended, when (slackMoment), who (a mention), the audit sentence,
 * and for an end-date change the old and new end. Ephemeral only: it holds student e-mails.
 */

import { compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import {
  actions,
  type ButtonElement,
  button,
  context,
  header,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { encodeNav, type NavTargetOf } from '../../kernel/blocks/nav.js';
import { openPageLabel } from '../../kernel/blocks/page-label.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { ACTION_WORDS, auditSentence, OUTCOME_WORDS, personOf } from '../../kernel/domain/audit-sentence.js';
import { count } from '../../kernel/domain/count.js';
import type { HistoryPage, HistorySubject } from '../../kernel/domain/history.js';

const MARK: Record<AuditEntry['outcome'], string> = {
  done: ':white_check_mark:',
  refused: ':no_entry_sign:',
  failed: ':x:',
  unknown: ':grey_question:',
};

/** "ada@example.com", "<@U0ADA> (and ada@example.com)", "license or pool `2001`". */
export function historySubjectText(s: HistorySubject): string {
  switch (s.kind) {
    case 'email':
      return escapeTruncated(s.email, 254);
    case 'user':
      return `${personOf(s.userId)}${s.email ? ` (and ${escapeTruncated(s.email, 254)})` : ''}`;
    case 'id':
      return `license or pool \`${escapeTruncated(s.id, 64)}\``;
  }
}

/** What was looked for, for "nothing found". */
function searchedText(s: HistorySubject): string {
  switch (s.kind) {
    case 'email':
      return `entries whose student or requester e-mail is ${escapeTruncated(s.email, 254)}`;
    case 'user':
      return `entries made by ${personOf(s.userId)} or about their course requests${
        s.email ? `, and entries about ${escapeTruncated(s.email, 254)}` : ''
      }`;
    case 'id':
      return `entries about license \`${escapeTruncated(s.id, 64)}\` or pool \`${escapeTruncated(s.id, 64)}\``;
  }
}

function windowText(days: number | undefined): string {
  if (days === undefined) return 'in the whole audit trail';
  return days === 1 ? 'in the last day' : `in the last ${days} days`;
}

function day(d: string): string {
  return dayText(d.slice(0, 10)) || escapeMrkdwn(d.slice(0, 10));
}

/** One entry as one section's text. */
export function historyEntryText(e: AuditEntry): string {
  const lines = [
    `${MARK[e.outcome]} *${capital(ACTION_WORDS[e.action])}* (${OUTCOME_WORDS[e.outcome]}) · ${slackMoment(e.at)} · by ${personOf(e.actor)}`,
    auditSentence(e, { emails: true }),
  ];
  if (e.action === 'extend' && (e.previousEndDate || e.endDate)) {
    lines.push(
      `End date: ${e.previousEndDate ? day(e.previousEndDate) : 'unknown'} → ${e.endDate ? day(e.endDate) : 'unknown'}`,
    );
  }
  if (e.detail) lines.push(`_${escapeTruncated(e.detail, 500)}_`);
  return lines.join('\n');
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type Target = NavTargetOf<'history'>;

function targetOf(p: HistoryPage, move: Partial<Target> & { page: number }): Target {
  return {
    view: 'history',
    subject: p.subject,
    ...(p.days !== undefined ? { days: p.days } : {}),
    ...(p.since !== undefined ? { since: p.since } : {}),
    ...move,
  };
}

export function buildHistoryMessage(p: HistoryPage): SlackMessage {
  const subject = historySubjectText(p.subject);
  const pastEnd = p.items.length === 0 && p.page > 1;
  if (p.items.length === 0 && !pastEnd) {
    const text = `No audit entries found: I looked for ${searchedText(p.subject)}, ${windowText(p.days)}.`;
    return {
      text,
      blocks: compact([
        section(`:information_source: ${text}`),
        p.emailProblem ? context(`:warning: ${escapeMrkdwn(p.emailProblem)}`) : undefined,
      ]),
    };
  }
  const label = openPageLabel(p.page, p.items.length, p.hasOlder);
  const els: ButtonElement[] = [];
  if (p.page > 1 || p.hasNewer) {
    // The newest page is asked for afresh; a page between goes by the cursor.
    const previous =
      pastEnd || p.page <= 2 || p.newestId === undefined
        ? targetOf(p, { page: 1 })
        : targetOf(p, { page: p.page - 1, after: p.newestId });
    els.push(button(ActionId.navPrevious, '◀ Previous', encodeNav(previous)));
  }
  if (p.hasOlder && p.oldestId !== undefined) {
    els.push(button(ActionId.navNext, 'Next ▶', encodeNav(targetOf(p, { page: p.page + 1, before: p.oldestId }))));
  }
  els.push(button(ActionId.historyExport, 'Export (CSV to your DM)', encodeNav(targetOf(p, { page: 1 }))));
  const rows = p.items.map((item) => section(historyEntryText(item.entry)));
  return {
    text: `History of ${subject}, ${windowText(p.days).replace(/^in /, '')}, ${label}`,
    blocks: compact([
      header('History'),
      context(`${subject} · ${windowText(p.days).replace(/^in /, '')} · newest first · ${label}`),
      p.emailProblem ? context(`:warning: ${escapeMrkdwn(p.emailProblem)}`) : undefined,
      ...(rows.length > 0
        ? rows
        : [section('There are no older entries here (they may have been deleted by age). Go back to page 1.')]),
      actions(els),
    ]),
  };
}

/** The ephemeral answer after an export: where the file went. */
export function historyExportSentText(rows: number, filename: string): string {
  return `Sent: ${count(rows, 'audit entry', 'audit entries')}, as ${filename} in a direct message from License Desk.`;
}

/** The file's comment in the DM. */
export function buildHistoryExportComment(subject: HistorySubject, days: number | undefined, rows: number): string {
  return `License Desk history of ${historySubjectText(subject)}, ${windowText(days).replace(/^in /, '')}: ${count(
    rows,
    'audit entry',
    'audit entries',
  )}, newest first. It holds student e-mails: keep it where only license managers can read it.`;
}
