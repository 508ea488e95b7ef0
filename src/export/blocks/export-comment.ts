/**
 * The initial_comment of the export file: Slack renders it as mrkdwn, so the course title (the
 * licensing service's data) is escaped; a title like `<!channel>` must not ping anyone. Pure.
 */

import { escapeMrkdwn, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { EXPORT_COLUMNS } from '../../kernel/domain/csv.js';

export interface ExportCommentInput {
  rows: number;
  pool: { id: string; course: { title: string } } | undefined;
  sandbox: boolean;
}

/**
 * A file's comment in a DM with the sandbox marker in front when the data is the sandbox's: every file
 * License Desk sends (the license export, the history export) says so, as every message does.
 */
export function withSandboxComment(comment: string, sandbox: boolean): string {
  return sandbox ? `[Sandbox data, not real licenses] ${comment}` : comment;
}

export function buildExportComment({ rows, pool, sandbox }: ExportCommentInput): string {
  const of = pool ? ` of pool ${escapeMrkdwn(pool.id)} (${escapeTruncated(pool.course.title, 200)})` : '';
  return withSandboxComment(
    `Your export: ${rows} license${rows === 1 ? '' : 's'}${of}. Columns: ${EXPORT_COLUMNS.join(', ')}.`,
    sandbox,
  );
}
