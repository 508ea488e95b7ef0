/**
 * `/licenses export [poolId]`: the CSV goes to the requester's DM as a file
 * (conversations.open, scope im:write; files.uploadV2 = getUploadURLExternal, upload, complete; scope
 * files:write; platform.md section 4.2), never to the channel where the command was typed: it holds
 * every student's e-mail. The ephemeral reply says where it went.
 *
 * A big export takes many minutes at the licensing pace (docs/export.md), so a progress message in
 * the DM is updated at most every few seconds (chat.update; the response_url allows only 5 uses). The
 * file is written to a temporary file by the service and streamed to the upload URL with its
 * length, so the CSV is never held in memory whole.
 */

import { createReadStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { webApi } from '@slack/bolt';
import {
  buildErrorMessage,
  buildNoticeMessage,
  buildWorkingMessage,
  withSandboxMarker,
} from '../../kernel/blocks/common.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { openExportDm, type Replier } from '../../kernel/slack/reply.js';
import { presentErrorTo } from '../../kernel/slack/token-alarm.js';
import { createProgressStore } from '../../progress/index.js';
import { buildExportComment } from '../blocks/export-comment.js';
import { buildExportProgressMessage, type ExportProgressState } from '../blocks/export-progress.js';
import { type ExportProgress, exportLicenses, type LicenseExport } from '../services/export.js';

/** The progress message changes at most this often (chat.update allows about 50 a minute). */
export const PROGRESS_EVERY_MS = 5_000;

/** POSTs the file's bytes to Slack's upload URL as a stream with its length (no token: the URL is signed). */
function postFile(url: string, file: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = send(
      target,
      { method: 'POST', headers: { 'content-type': 'text/csv', 'content-length': String(bytes) } },
      (res) => {
        res.resume();
        res.on('end', () =>
          (res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`upload answered HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const stream = createReadStream(file);
    stream.on('error', (error) => req.destroy(error));
    stream.pipe(req);
  });
}

/**
 * Sends a written export with `send` (uploadToDm) and discards its file after, sent or not. False when
 * Slack would not take it, after logging `what` and telling the person nothing was sent; a licensing
 * error is thrown on.
 */
export async function sendExportOrSay(
  deps: AppDeps,
  reply: Pick<Replier, 'send'>,
  what: string,
  written: { discard(): Promise<void> },
  send: () => Promise<void>,
): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (error) {
    if (isLicensingError(error)) throw error;
    deps.logger.warn(`${what} upload failed`, { error: String(error) });
    await reply.send(
      buildErrorMessage(
        'Slack did not take the file, so nothing was sent. License Desk needs the files:write and im:write scopes (reinstall the app from manifest.yml); please try again later.',
      ),
    );
    return false;
  } finally {
    await written.discard();
  }
}

/** A CSV file written by a service, uploaded to a DM (also `/licenses history`'s Export). */
export async function uploadToDm(
  client: webApi.WebClient,
  channel: string,
  result: Pick<LicenseExport, 'filename' | 'file' | 'bytes'>,
  comment: string,
): Promise<void> {
  const url = await client.files.getUploadURLExternal({ filename: result.filename, length: result.bytes });
  if (!url.upload_url || !url.file_id) throw new Error('files.getUploadURLExternal returned no upload URL');
  await postFile(url.upload_url, result.file, result.bytes);
  await client.files.completeUploadExternal({
    files: [{ id: url.file_id, title: result.filename }],
    channel_id: channel,
    initial_comment: comment,
  });
}

/** The DM's progress message: posted once, then updated at most every PROGRESS_EVERY_MS; never throws. */
function progressMessage(deps: AppDeps, client: webApi.WebClient, channel: string) {
  let ts: string | undefined;
  /** The first post failed: the export goes on without a progress message rather than post again. */
  let off = false;
  let last = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const show = (state: ExportProgressState) => {
    const message = withSandboxMarker(buildExportProgressMessage(state), deps.sandbox);
    inFlight = inFlight.then(async () => {
      if (off) return;
      try {
        if (ts === undefined) {
          ts = (await client.chat.postMessage({ channel, ...message })).ts;
          if (ts === undefined) off = true;
        } else await client.chat.update({ channel, ts, ...message });
      } catch (error) {
        if (ts === undefined) off = true;
        deps.logger.warn('export progress message failed', { error: String(error) });
      }
    });
    return inFlight;
  };
  return {
    show,
    tick(what: string, p: ExportProgress) {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      void show({ kind: 'running', what, ...p });
    },
  };
}

export async function runExport(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  poolId: string | undefined,
  reply: Replier,
  /** From the gate's verdict: a license admin is told which setting to fix. */
  canChange = false,
): Promise<void> {
  const what = poolId ? `the licenses of pool ${poolId}` : 'every license';
  await reply.send(buildWorkingMessage(`exporting ${what}; progress in your DM with License Desk`, limitWait(deps)));
  const channel = await openExportDm(deps, client, userId, reply, 'export');
  if (channel === undefined) return;
  const progress = progressMessage(deps, client, channel);
  void progress.show({ kind: 'running', what, pagesDone: 0, pagesTotal: 1, msLeft: undefined });
  let result: LicenseExport;
  try {
    result = await exportLicenses(deps.licensing, {
      poolId,
      now: deps.now(),
      onProgress: (p) => progress.tick(what, p),
      ...(deps.records ? { progressStore: createProgressStore(deps.records) } : {}),
    });
  } catch (error) {
    deps.logger.warn('export failed', { error: String(error) });
    await progress.show({ kind: 'failed', what });
    return reply.send(
      buildErrorMessage(await presentErrorTo(deps, client, canChange, error, poolId ? 'pool' : 'other')),
    );
  }
  const sent = `${result.rows} license${result.rows === 1 ? '' : 's'}${result.pool ? ` of pool ${result.pool.id} (${result.pool.course.title})` : ''}`;
  deps.logger.info('export done', {
    rows: result.rows,
    bytes: result.bytes,
    requests: result.requests,
    path: result.path,
  });
  const sentFile = await sendExportOrSay(deps, reply, 'export', result, async () => {
    await progress.show({ kind: 'done', what, rows: result.rows, pages: result.requests });
    await uploadToDm(
      client,
      channel,
      result,
      buildExportComment({ rows: result.rows, pool: result.pool, sandbox: deps.sandbox }),
    );
  });
  if (!sentFile) return;
  await reply.send(buildNoticeMessage(`Sent: ${sent}, as ${result.filename} in a direct message from License Desk.`));
}
