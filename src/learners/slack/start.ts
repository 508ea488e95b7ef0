/**
 * The learner's reminders composed (docs/learners.md): the use case on the records, the renderer of
 * its outbox notice (the DM) and its job on the one runner (hourly, one replica at a time through the
 * job lease). Built by the composition root once the app's Slack client exists.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import { createDbLease } from '../../kernel/db/job-leases.js';
import { startedJob } from '../../kernel/services/jobs/runner.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type NoticeFeatureOptions, noticeOf, openDm } from '../../kernel/slack/notices.js';
import { createProgressStore } from '../../progress/index.js';
import { buildReminderMessage } from '../blocks/learners.js';
import { createLearnerStore } from '../db/store.js';
import { LEARNER_NOTICE_KINDS, type LearnerReminderNotice, type LearnerSettings } from '../domain/learners.js';
import { type ReminderRun, sendReminders } from '../services/reminders.js';

export const LEARNER_REMIND_EVERY_MS = 60 * 60_000;

export interface LearnersFeature {
  /** Sends one outbox notice of this feature's kinds; false for any other kind. */
  deliver(body: unknown): Promise<boolean>;
  /** The reminders' work once (tests call it after moving the clock). */
  tick(): Promise<ReminderRun>;
  start(): void;
  stop(): Promise<void>;
}

export const isLearnerNotice = noticeOf<LearnerReminderNotice>(LEARNER_NOTICE_KINDS);

/** A full member of the workspace with this e-mail (not a guest, a bot or deactivated), or undefined. */
async function memberByEmail(client: webApi.WebClient, email: string): Promise<string | undefined> {
  try {
    const { user } = await client.users.lookupByEmail({ email });
    if (!user?.id || user.deleted || user.is_bot || user.is_restricted || user.is_ultra_restricted) return undefined;
    return user.id;
  } catch (error) {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    if (code === 'users_not_found') return undefined;
    throw error;
  }
}

export function composeLearners(deps: AppDeps, opts: NoticeFeatureOptions<LearnerSettings>): LearnersFeature {
  const { logger } = deps;
  const store = createLearnerStore(opts.records);
  const progress = createProgressStore(opts.records);
  const run = () =>
    sendReminders({
      store,
      progress,
      licensing: deps.licensing,
      outbox: opts.outbox,
      lookupUser: (email) => memberByEmail(opts.client, email),
      now: deps.now,
      settings: opts.settings,
      logger,
    });
  const job = startedJob(deps.jobs, logger, {
    name: 'learners: reminders before a license ends',
    everyMs: opts.everyMs ?? LEARNER_REMIND_EVERY_MS,
    firstAfterMs: 60_000,
    oneReplica: { lease: createDbLease(opts.records, { now: deps.now }) },
    run: () =>
      run()
        .then((r) => {
          if (r.sent > 0) logger.info('learner reminders queued', { ...r });
        })
        .catch((error: unknown) =>
          logger.warn('learner reminders: the run failed; trying again later', { error: String(error) }),
        ),
  });

  return {
    async deliver(body) {
      if (!isLearnerNotice(body)) return false;
      const message = withSandboxMarker(buildReminderMessage(body, deps.now()), deps.sandbox);
      const channel = await openDm(opts.client, body.user);
      await opts.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
      return true;
    },
    tick: run,
    start: () => {
      if (opts.settings.remindDays !== undefined) job.start();
    },
    stop: () => job.stop(),
  };
}
