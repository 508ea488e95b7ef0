/**
 * The bulk job's messages in the requester's DM: conversations.open (scope im:write) once, then one
 * chat.postMessage that chat.update edits in place (an ephemeral response_url message could not be
 * edited after a restart, and lives only 30 minutes), and the per-line results as thread replies.
 */

import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { openDm } from '../../kernel/slack/notices.js';
import { buildBulkProgressMessage, buildBulkResultMessages } from '../blocks/bulk-progress.js';
import type { BulkJob } from '../db/store.js';
import type { BulkProgressNotices } from '../services/bulk-runner.js';

export function createBulkProgressNotices(
  client: webApi.WebClient,
  deps: AppDeps,
  userId: string,
): BulkProgressNotices {
  const message = (job: BulkJob) => withSandboxMarker(buildBulkProgressMessage(job), deps.sandbox);
  return {
    async started(job) {
      const channel = await openDm(client, userId);
      const res = await client.chat.postMessage({ channel, ...message(job) });
      return res.ts ? { channel, ts: res.ts } : undefined;
    },
    async progress(job) {
      if (!job.progress) return;
      await client.chat.update({ channel: job.progress.channel, ts: job.progress.ts, ...message(job) });
    },
    async finished(job) {
      const where = job.progress ?? { channel: await openDm(client, userId), ts: undefined };
      if (where.ts) await client.chat.update({ channel: where.channel, ts: where.ts, ...message(job) });
      else await client.chat.postMessage({ channel: where.channel, ...message(job) });
      for (const part of buildBulkResultMessages(job)) {
        await client.chat.postMessage({
          channel: where.channel,
          ...(where.ts ? { thread_ts: where.ts } : {}),
          ...part,
        });
      }
    },
  };
}
