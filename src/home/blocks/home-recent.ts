/** One line of "Recent changes" on the Home tab, from an audit entry. Names, never e-mails. */

import { escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { auditSentence } from '../../kernel/domain/audit-sentence.js';

const OUTCOME: Record<AuditEntry['outcome'], string> = {
  done: ':white_check_mark:',
  refused: ':no_entry_sign:',
  failed: ':x:',
  unknown: ':grey_question:',
};

/** ":white_check_mark: <date> · <@U0MGR> revoked license `4001` of *Ada Lovelace* for *Power BI*". */
export function homeRecentLine(e: AuditEntry): string {
  const at = Date.parse(e.at);
  const when = Number.isNaN(at)
    ? escapeTruncated(e.at, 30)
    : `<!date^${Math.floor(at / 1000)}^{date_short} {time}|${e.at.slice(0, 16)}>`;
  // The entry may come from a file: the sentence builds mentions only from well-formed user ids.
  return `${OUTCOME[e.outcome]} ${when} · ${auditSentence(e, { emails: false })}`;
}
