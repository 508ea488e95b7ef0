/**
 * `/licenses export [poolId]`: the CSV goes to the requester's DM as a file
 * (conversations.open, scope im:write; files.uploadV2 = getUploadURLExternal, upload, complete; scope
 * files:write; platform.md section 4.2), never to the channel where the command was typed: it holds
 * every student's e-mail. The ephemeral reply says where it went.
 */
import type { webApi } from '@slack/bolt';
import { buildErrorMessage, buildNoticeMessage, buildWorkingMessage } from '../../blocks/common.js';
import { buildExportComment } from '../../blocks/export-comment.js';
import { isLicensingError } from '../../licensing/errors.js';
import { exportLicenses } from '../../services/export.js';
import { openDm } from '../bulk/notifier.js';
import type { AppDeps, Role } from '../deps.js';
import { presentErrorTo } from '../token-alarm.js';
import type { Replier } from './reply.js';

export async function runExport(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  poolId: string | undefined,
  reply: Replier,
  role: Role = 'viewer',
): Promise<void> {
  await reply.send(
    buildWorkingMessage(poolId ? `exporting the licenses of pool ${poolId}` : 'exporting every license'),
  );
  let result: Awaited<ReturnType<typeof exportLicenses>>;
  try {
    result = await exportLicenses(deps.licensing, { poolId, now: deps.now() });
  } catch (error) {
    deps.logger.warn('export failed', { error: String(error) });
    return reply.send(buildErrorMessage(await presentErrorTo(deps, client, role, error, poolId ? 'pool' : 'other')));
  }
  const what = `${result.rows} license${result.rows === 1 ? '' : 's'}${result.pool ? ` of pool ${result.pool.id} (${result.pool.course.title})` : ''}`;
  try {
    const channel = await openDm(client, userId);
    await client.filesUploadV2({
      channel_id: channel,
      filename: result.filename,
      title: result.filename,
      content: result.csv,
      initial_comment: buildExportComment({ rows: result.rows, pool: result.pool, sandbox: deps.sandbox }),
    });
  } catch (error) {
    if (isLicensingError(error)) throw error;
    deps.logger.warn('export upload failed', { error: String(error) });
    return reply.send(
      buildErrorMessage(
        'Slack did not take the file, so nothing was sent. License Desk needs the files:write and im:write scopes (reinstall the app from manifest.yml); please try again later.',
      ),
    );
  }
  await reply.send(buildNoticeMessage(`Sent: ${what}, as ${result.filename} in a direct message from License Desk.`));
}
