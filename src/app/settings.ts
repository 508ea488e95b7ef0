/**
 * The composition root's settings as a start reads them from the configuration (src/main.ts): every
 * feature on, each with its configured values, and every job on its own timer.
 */
import type { Config } from '../kernel/config/config.js';
import { DEFAULT_RATE_LIMIT } from '../kernel/licensing/index.js';
import { requestTimers } from '../requests/index.js';
import type { AppSettings } from './compose.js';

export function settingsOf(
  config: Config,
  at: {
    /** DATA_DIR, or the local demo's own directory inside it. */
    dataDir: string;
    /** The sandbox marker, read at each reply. */
    sandbox: () => boolean;
  },
): AppSettings {
  const lic = config.licensing;
  const rateLimit = { limit: lic.rateLimitPerMinute, windowMs: DEFAULT_RATE_LIMIT.windowMs };
  const { requests, progress } = config;
  return {
    roles: { admins: config.admins, viewers: config.viewers, requesters: requests.requesters },
    sandbox: at.sandbox,
    auditChannel: config.auditChannel,
    auditRetentionDays: config.auditRetentionDays,
    rateLimit,
    homeBudgetShare: config.homeBudgetShare,
    progressThresholds: { notStartedDays: progress.notStartedDays, stalledDays: progress.stalledDays },
    desk: {
      dataDir: at.dataDir,
      alerts: config.alerts,
      bulkTakeoverMs: config.bulkTakeoverMs,
      // The in-process sandbox seeds its data afresh at each start: its alert memory starts afresh too.
      sandboxRun: lic.mode !== 'api',
    },
    requests: {
      channel: requests.channel,
      // REQUEST_ESCALATE_HOURS (off unless set), counted on REQUEST_BUSINESS_DAYS when set.
      timers: requestTimers(requests.remindHours, requests.expiryDays, {
        hours: requests.approvals.escalateHours,
        calendar: requests.approvals.calendar,
      }),
      escalateTo: requests.approvals.escalateTo,
      limits: { maxOpen: requests.maxOpen, maxPerDay: requests.maxPerDay },
      // The background check for seats freed elsewhere keeps to HOME_BUDGET_SHARE.
      waitlist: {
        rateLimit,
        share: config.homeBudgetShare,
        // WAITLIST_OFFER_HOURS (0: assigned at once) and OFFER_NOT_STARTED_DAYS (docs/leavers-and-offers.md#seats-offered-then-claimed).
        offers: { hours: requests.offerHours, notStartedDays: requests.offerNotStartedDays },
      },
    },
    // APPROVER_DAILY_LIST_TIME in REQUEST_TIMEZONE (docs/roles-and-approvals.md).
    approvers: { dailyListTime: requests.approvals.dailyListTime, timeZone: requests.approvals.timeZone },
    reclaim: config.reclaim,
    // PROGRESS_RETURN_COMPLETED (off by default); its post goes to the alert channel.
    autoReturn: { settings: progress.autoReturn, channel: config.alerts.channel },
    // PROGRESS_PASS=off: no daily pass.
    ...(progress.pass ? { progressPass: { share: progress.budgetShare } } : {}),
    digest: config.digest,
    // LEAVER_GRACE_DAYS (7 by default, off: none); its posts go to the alert channel. The local demo's
    // Slack double knows a few of the sandbox's holders only: no weekly sweep there.
    leavers: {
      settings: config.leavers,
      channel: config.alerts.channel,
      ...(config.slack.mode === 'demo' ? { sweep: { weekly: false } } : {}),
    },
    // LEARNER_REMIND_DAYS (docs/learners.md): off leaves `/licenses mine` and App Home's list.
    learners: config.learners,
    // TWO_PERSON_MIN_ROWS and TWO_PERSON_EXPIRY_HOURS (docs/roles-and-approvals.md): mass changes wait for a second admin.
    twoPerson: config.twoPerson,
    // SLACKBOT_MCP (off by default) and the test-only MCP_UNSIGNED_TEST_IDENTITY (docs/slackbot.md).
    slackbot: config.slackbot,
    jobs: 'all',
  };
}
