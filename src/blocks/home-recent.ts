/** One line of "Recent changes" on the Home tab, from an audit entry. Names, never e-mails. */
import type { AuditEntry } from '../domain/audit-entry.js';
import { escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

const DONE: Record<AuditEntry['action'], string> = {
  assign: 'assigned',
  recycle: 'freed a seat and assigned',
  extend: 'changed the end date of',
  revoke: 'revoked',
  'bulk-assign': 'bulk-assigned',
  request: 'requested',
  'request-approve': 'approved the request for',
  'request-deny': 'denied the request for',
  'request-waitlist': 'waitlisted the request for',
  'request-expire': 'let expire the request for',
  'request-cancel': 'cancelled the request for',
};

const TRIED: Record<AuditEntry['action'], string> = {
  assign: 'tried to assign',
  recycle: 'tried to free a seat for',
  extend: 'tried to change the end date of',
  revoke: 'tried to revoke',
  'bulk-assign': 'tried to bulk-assign',
  request: 'tried to request',
  'request-approve': 'tried to approve the request for',
  'request-deny': 'tried to deny the request for',
  'request-waitlist': 'tried to waitlist the request for',
  'request-expire': 'tried to expire the request for',
  'request-cancel': 'tried to cancel the request for',
};

const OUTCOME: Record<AuditEntry['outcome'], string> = {
  done: ':white_check_mark:',
  refused: ':no_entry_sign:',
  failed: ':x:',
  unknown: ':grey_question:',
};

export function homeRecentLine(e: AuditEntry): string {
  const at = Date.parse(e.at);
  const when = Number.isNaN(at)
    ? escapeTruncated(e.at, 30)
    : `<!date^${Math.floor(at / 1000)}^{date_short} {time}|${e.at.slice(0, 16)}>`;
  // A mention only from a well-formed user id: the entry came from a file.
  const who = /^[UW][A-Z0-9]{2,20}$/.test(e.actor) ? `<@${e.actor}>` : 'someone';
  const verb = e.outcome === 'done' ? DONE[e.action] : TRIED[e.action];
  const whom = e.studentName
    ? ` *${escapeTruncated(e.studentName, 60)}*`
    : e.licenseId
      ? ` license \`${escapeMrkdwn(e.licenseId)}\``
      : '';
  const course = e.courseTitle ? ` · ${escapeTruncated(e.courseTitle, 60)}` : '';
  return `${OUTCOME[e.outcome]} ${when} · ${who} ${verb}${whom}${course}`;
}
