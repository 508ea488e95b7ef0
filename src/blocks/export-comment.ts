/**
 * The initial_comment of the export file: Slack renders it as mrkdwn, so the course title (the
 * licensing service's data) is escaped; a title like `<!channel>` must not ping anyone. Pure.
 */
import { escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

export interface ExportCommentInput {
  rows: number;
  pool: { id: string; course: { title: string } } | undefined;
  sandbox: boolean;
}

export function buildExportComment({ rows, pool, sandbox }: ExportCommentInput): string {
  const of = pool ? ` of pool ${escapeMrkdwn(pool.id)} (${escapeTruncated(pool.course.title, 200)})` : '';
  return `${sandbox ? '[Sandbox data, not real licenses] ' : ''}Your export: ${rows} license${rows === 1 ? '' : 's'}${of}. Columns: student, email, course, pool, license, start, end, status, progress, completed.`;
}
