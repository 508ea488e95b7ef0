/**
 * Starts the issue-6 background work once the app exists (its bot client posts without a request):
 * the daily alert check, and the bulk jobs a previous process left unfinished. src/main.ts and the
 * end-to-end harness call it; stop() ends both before the licensing client closes.
 */
import type { webApi } from '@slack/bolt';
import { type AlertsConfig, createAlertPoster, tellNothingNew } from '../../alerts/index.js';
import { createBulkProgressNotices } from '../../bulk/index.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import { createDailyScheduler, type DailyScheduler } from '../../kernel/services/jobs/daily.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { raiseTokenAlarm } from '../../kernel/slack/token-alarm.js';

export interface RunningDesk {
  /** Undefined when alerts are off (no ALERT_CHANNEL or AUDIT_CHANNEL). */
  scheduler: DailyScheduler | undefined;
  /**
   * Runs the daily alert check now (the local console's button): 'off' without an alert channel. When
   * it ran and found nothing new, `userId` is told so in the alert channel (ephemeral), with when the
   * last alerts went out; throws when the check fails.
   */
  checkNow(userId: string): Promise<'ran' | 'busy' | 'stopped' | 'off'>;
  /** Unfinished bulk jobs found and resumed at start. */
  resumed: number;
  /** Stops the alert check and the bulk jobs; a running job stops after its current line, waited for
   *  up to `bulkLineMs` (default 5 s), and resumes at the next start. */
  stop(bulkLineMs?: number): Promise<void>;
}

export interface StartDeskOptions {
  alerts: AlertsConfig;
  /** Default: tick every minute. */
  tickMs?: number;
  /** false: do not add the check to the job runner (tests call scheduler.tick() / runNow()). */
  autoStart?: boolean;
}

export async function startDesk(client: webApi.WebClient, deps: AppDeps, opts: StartDeskOptions): Promise<RunningDesk> {
  const desk = deps.desk;
  if (!desk) return { scheduler: undefined, resumed: 0, checkNow: async () => 'off', stop: async () => undefined };
  const log = deps.logger;
  let scheduler: DailyScheduler | undefined;
  const channel = opts.alerts.channel;
  // Messages the last run posted: a run on demand that posted none says so.
  let lastPosted = 0;
  if (channel) {
    const post = createAlertPoster(client, channel, deps);
    scheduler = createDailyScheduler({
      name: 'alerts: daily check',
      time: opts.alerts.time,
      timeZone: opts.alerts.timeZone,
      now: deps.now,
      memory: desk.alerts,
      lease: desk.alertLease,
      ...(deps.jobs ? { jobs: deps.jobs } : {}),
      run: async () => {
        try {
          lastPosted = await desk.alerts.check(post);
        } catch (error) {
          // Nobody is waiting on the daily check, so a refused token would otherwise only be logged.
          if (isLicensingError(error) && error.kind === 'unauthorized') void raiseTokenAlarm(deps, client);
          throw error;
        }
      },
      logger: log,
      ...(opts.tickMs ? { tickMs: opts.tickMs } : {}),
    });
    if (opts.autoStart !== false) scheduler.start();
    log.info('alerts on', { channel, time: opts.alerts.time, timeZone: opts.alerts.timeZone });
  } else {
    log.info('alerts off: set ALERT_CHANNEL (or AUDIT_CHANNEL) to a channel id to get the daily check');
  }
  const resumed = await desk.runner.resumeAll((job) => createBulkProgressNotices(client, deps, job.requester));
  return {
    scheduler,
    resumed,
    async checkNow(userId) {
      if (!scheduler || !channel) return 'off';
      const result = await scheduler.runNow();
      if (result === 'ran' && lastPosted === 0) {
        await tellNothingNew(client, channel, userId, deps, await desk.alerts.lastPostedAt());
      }
      return result;
    },
    async stop(bulkLineMs) {
      await Promise.all([scheduler?.stop(), desk.runner.stop(bulkLineMs)]);
    },
  };
}
