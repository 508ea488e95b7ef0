/**
 * The automatic return of finished seats composed (docs/progress.md): the use case on the records
 * (services/auto-return.ts), the renderers of its outbox notices, and its read-back of returns a
 * killed process left claimed (a job of the runner: soon after start, then every 30 seconds). The daily pass calls
 * `afterPass` once it is complete.
 */

import { withSandboxMarker } from '../../kernel/blocks/common.js';
import { startedJob } from '../../kernel/services/jobs/runner.js';
import { createIntents } from '../../kernel/services/writes/intents.js';
import { createWriteLedger } from '../../kernel/services/writes/ledger.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { deliverIf, type NoticeFeatureOptions, noticeOf, openDm } from '../../kernel/slack/notices.js';
import { slackUserByEmail } from '../../kernel/slack/resolve-user.js';
import { buildSeatReturnedMessage, buildSeatsReturnedPost } from '../blocks/auto-return.js';
import { AUTO_RETURN_NOTICE_KINDS, type AutoReturnNotice, type AutoReturnSettings } from '../domain/auto-return.js';
import { type AutoReturn, type AutoReturnRun, createAutoReturn } from '../services/auto-return.js';

/** The read-back of returns left claimed: a quick read of the claims when there are none (see docs/progress.md). */
export const AUTO_RETURN_RESUME_EVERY_MS = 30_000;

export interface AutoReturnFeature {
  service: AutoReturn;
  /** For the progress pass: the returns after a complete pass (nothing when the setting is off). */
  afterPass(pass: { startedAt: string }): Promise<AutoReturnRun | undefined>;
  /** Sends one outbox notice of this feature's kinds; false for any other kind. */
  deliver(body: unknown): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

export const isAutoReturnNotice = noticeOf<AutoReturnNotice>(AUTO_RETURN_NOTICE_KINDS);

export function composeAutoReturn(
  deps: AppDeps,
  opts: NoticeFeatureOptions<AutoReturnSettings> & {
    /** The alert channel (ALERT_CHANNEL, else AUDIT_CHANNEL); unset: no channel post. */
    channel?: string | undefined;
  },
): AutoReturnFeature {
  const logger = deps.logger;
  // A return is a licensing write: recorded as an intent before it is sent, like an admin's revoke.
  const writes = deps.writes ?? createWriteLedger(opts.records, createIntents(opts.records, deps.now));
  const service = createAutoReturn({
    records: opts.records,
    licensing: deps.licensing,
    outbox: opts.outbox,
    change: () => ({
      licensing: deps.licensing,
      audit: opts.audit,
      now: deps.now,
      work: deps.work,
      seats: deps.waitlist,
      writes,
    }),
    now: deps.now,
    settings: opts.settings,
    channel: opts.channel,
    logger,
    // A return whose process died mid-DELETE: its intent is read back at once, not at the settler's next minute.
    settle: async () => deps.settler?.runOnce(),
  });

  async function deliver(notice: AutoReturnNotice): Promise<void> {
    const client = opts.client;
    if (notice.kind === 'progress-returns') {
      const message = withSandboxMarker(buildSeatsReturnedPost(notice), deps.sandbox);
      await client.chat.postMessage({ channel: notice.channel, text: message.text, blocks: message.blocks });
      return;
    }
    // The holder, found by e-mail now; not in Slack: nobody to tell (the return is in the audit trail).
    const user = await slackUserByEmail(client, notice.email);
    if (!user) {
      logger.info('automatic return: the holder has no Slack account; nobody to tell', {
        licenseId: notice.licenseId,
      });
      return;
    }
    const message = withSandboxMarker(buildSeatReturnedMessage(notice), deps.sandbox);
    const channel = await openDm(client, user);
    await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
  }

  const job = startedJob(deps.jobs, logger, {
    name: 'automatic return: read-back',
    everyMs: opts.everyMs ?? AUTO_RETURN_RESUME_EVERY_MS,
    // After the settler's first round (it reads back the revokes' intents first).
    firstAfterMs: 20_000,
    run: () =>
      service
        .resume()
        .catch((error: unknown) =>
          logger.warn('automatic return: the read-back failed; trying again later', { error: String(error) }),
        ),
  });

  return {
    service,
    afterPass: (pass) => service.afterPass(pass),
    deliver: deliverIf(isAutoReturnNotice, deliver),
    start: () => job.start(),
    stop: () => job.stop(),
  };
}
