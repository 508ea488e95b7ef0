/**
 * The environment, read and checked once. The only module that touches process.env (the sandbox cli
 * in local/ aside). parseConfig is pure: it returns either a Config or the full list of problems, each with
 * its fix, and never repeats a secret's value.
 */
import * as z from 'zod';
import type { AlertsConfig } from '../../alerts/domain/alerts.js';
import { type LearnerSettings, learnerSettings } from '../../learners/domain/learners.js';
import {
  LEAVER_DEFAULTS,
  LEAVER_GRACE_PROBLEM,
  type LeaverSettings,
  leaverSettingsOf,
} from '../../leavers/domain/leavers.js';
import type { AutoReturnSettings } from '../../progress/domain/auto-return.js';
import { type ReclaimSettings, reclaimSettings } from '../../reclaim/domain/reclaim.js';
import {
  SLACKBOT_MCP_PROBLEM,
  type SlackbotSettings,
  slackbotSettingsOf,
  TEST_IDENTITY_PROBLEM,
  testIdentityProblems,
  USER_ID,
} from '../../slackbot/domain/settings.js';
import { type TwoPersonSettings, twoPersonSettings } from '../../two-person/domain/two-person.js';
import { databaseUrlProblem, databaseUrlSecrets } from '../db/url.js';
import { type BusinessCalendar, parseBusinessDays } from '../domain/business-hours.js';
import { DEMO_SIGNING_SECRET } from './demo-credentials.js';
import { loadEnvFile } from './env-file.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** http: Slack posts to PORT; socket: Socket Mode (SLACK_APP_TOKEN); demo: local Slack double, no Slack at all. */
export type SlackConfig =
  | { mode: 'http'; botToken: string; signingSecret: string; apiUrl?: string; port: number }
  | { mode: 'socket'; botToken: string; signingSecret: string; appToken: string; apiUrl?: string; port: number }
  | { mode: 'demo'; port: number };

/** sandbox: the in-process licensing simulator with demo data stands in for the real API. */
export type LicensingConfig =
  | { mode: 'api'; url: string; token: string; rateLimitPerMinute: number; timeoutMs: number; cacheTtlMs: number }
  | { mode: 'sandbox'; rateLimitPerMinute: number; timeoutMs: number; cacheTtlMs: number };

export interface Config {
  slack: SlackConfig;
  licensing: LicensingConfig;
  /** Slack user (U…/W…) or user-group (S…) ids; empty with no viewers: workspace admins and owners. */
  admins: string[];
  /** Ids, or '*' for every member of the workspace. */
  viewers: string[] | '*';
  auditChannel?: string;
  /** AUDIT_RETENTION_DAYS: audit entries older than this are deleted (at start, then daily); unset: kept forever. */
  auditRetentionDays?: number;
  /** Reclaim rounds (docs/reclaim.md): progress thresholds, keep memory, deadline and reminder day. */
  reclaim: ReclaimSettings;
  redisUrl?: string;
  /** PostgreSQL for the records (required with several replicas); unset: SQLite in DATA_DIR. */
  databaseUrl?: string;
  logLevel: LogLevel;
  /** Where alert memory, bulk jobs and the SQLite database persist (created if missing). */
  dataDir: string;
  /** The daily alert check; no channel: alerts are off. */
  alerts: AlertsConfig;
  /** Share of the licensing rate budget the App Home dashboard may spend, 0 < share <= 1. */
  homeBudgetShare: number;
  /** The local console (a browser page at / that plays Slack): local demo on sandbox data only. */
  console: boolean;
  /** Self-service course requests (docs/course-requests.md). */
  requests: RequestsConfig;
  /** How long a stop (SIGTERM) waits for the work in flight before it ends it (docs/shutdown.md). */
  drainMs: number;
  /** How long a bulk job's lease lasts unless renewed: a job whose replica died waits this long before
   *  another replica takes it (BULK_TAKEOVER_SECONDS; unset: the desk's default, 30 s). */
  bulkTakeoverMs?: number;
  /** The daily progress pass and what it shows (docs/progress.md). */
  progress: ProgressConfig;
  /** The weekly digest (docs/digest.md); no channel: the scheduled post is off (`/licenses digest` still answers). */
  digest: DigestConfig;
  /** LEAVER_GRACE_DAYS: a deactivated member's seats on hold, returned after the grace (docs/leavers-and-offers.md#leavers); `off`: none of it. */
  leavers: LeaverSettings;
  /** The learner's own desk (docs/learners.md): LEARNER_REMIND_DAYS, the reminder before a license ends. */
  learners: LearnerSettings;
  /** The two-person rule for mass changes (docs/roles-and-approvals.md): TWO_PERSON_MIN_ROWS (0: off), TWO_PERSON_EXPIRY_HOURS. */
  twoPerson: TwoPersonSettings;
  /** The Slackbot tools (docs/slackbot.md): SLACKBOT_MCP, MCP_UNSIGNED_TEST_IDENTITY. */
  slackbot: SlackbotSettings;
}

/** PROGRESS_*: the daily pass over every active license's course progress (docs/progress.md). */
export interface ProgressConfig {
  /** PROGRESS_PASS=off turns the pass off (default on). */
  pass: boolean;
  /** PROGRESS_BUDGET_SHARE: share of the licensing rate budget the pass may spend, 0.05 to 1. */
  budgetShare: number;
  /** PROGRESS_NOT_STARTED_DAYS: days at 0 % after a license's start before its holder counts as not started. */
  notStartedDays: number;
  /** PROGRESS_STALLED_DAYS: days without a change before a started holder counts as stalled. */
  stalledDays: number;
  /** PROGRESS_RETURN_*: the automatic return of finished seats after each complete pass. */
  autoReturn: AutoReturnSettings;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface DigestConfig {
  /** DIGEST_CHANNEL, else the alert channel; unset: no scheduled post. */
  channel?: string;
  day: Weekday;
  /** HH:MM, 24-hour, in `timeZone`. */
  time: string;
  /** DIGEST_TZ, else ALERT_TIMEZONE, else UTC. */
  timeZone: string;
}

export interface RequestsConfig {
  /** REQUESTERS: '*' every full member (the default), ids, or [] when set empty: requests are off. */
  requesters: string[] | '*';
  /** Channel for the request cards; unset: each license admin gets them by DM. */
  channel?: string;
  remindHours: number;
  expiryDays: number;
  /** REQUEST_MAX_OPEN: requests one person may have waiting for an approver at once. */
  maxOpen: number;
  /** REQUEST_MAX_PER_DAY: new requests one person may make in 24 hours (cancelled ones count). */
  maxPerDay: number;
  /** WAITLIST_OFFER_HOURS: hours a freed seat is held for the first in line to claim (docs/leavers-and-offers.md#seats-offered-then-claimed); 0: assigned at once. */
  offerHours: number;
  /** OFFER_NOT_STARTED_DAYS: days after which a seat claimed from the waitlist still at 0 % is asked about. */
  offerNotStartedDays: number;
  /** Who approves (docs/roles-and-approvals.md): escalation, business days, the daily list. */
  approvals: ApprovalsConfig;
}

/** REQUEST_ESCALATE_*, REQUEST_BUSINESS_DAYS, REQUEST_TIMEZONE, APPROVER_DAILY_LIST_TIME. */
export interface ApprovalsConfig {
  /** REQUEST_ESCALATE_HOURS: undecided this long, a request is escalated; unset: no escalation. */
  escalateHours?: number;
  /** REQUEST_ESCALATE_TO: user and user-group ids told of an escalation; empty: the owners (LICENSE_ADMINS). */
  escalateTo: string[];
  /** REQUEST_BUSINESS_DAYS in REQUEST_TIMEZONE: only those days count toward the escalation. */
  calendar?: BusinessCalendar;
  /** APPROVER_DAILY_LIST_TIME (HH:MM, default 09:00) in REQUEST_TIMEZONE (default UTC). */
  dailyListTime: string;
  timeZone: string;
}

export type { AlertsConfig };

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

type Env = Record<string, string | undefined>;

/** Defaults of the local console's demo (local/slack/demo.ts has the same ids). */
export const CONSOLE_DEMO = {
  auditChannel: 'C0DEMOAUDT',
  alertChannel: 'C0DEMOALRT',
  requestsChannel: 'C0DEMORQST',
  viewers: ['U0DEMOVWR1'],
} as const;

// `.env` files copied from .env.example leave keys present but empty: treat them as unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const ID_LIST = /^\s*[UWS][A-Z0-9]{2,}\s*(,\s*[UWS][A-Z0-9]{2,}\s*)*,?\s*$/;
const httpUrl = (name: string, example: string) =>
  z.url({
    protocol: /^https?$/,
    error: `${name} must be an http(s) URL, e.g. ${example}`,
  });
const int = (name: string, min: number, max: number, meaning: string) =>
  z.coerce
    .number({ error: `${name} must be a whole number (${meaning})` })
    .int({ error: `${name} must be a whole number (${meaning})` })
    .min(min, { error: `${name} must be between ${min} and ${max} (${meaning})` })
    .max(max, { error: `${name} must be between ${min} and ${max} (${meaning})` });
// Secrets: the message names the variable and the expected shape, never the value.
const secret = (name: string, prefix: string | undefined, where: string) =>
  z.string().refine((v) => (prefix === undefined || v.startsWith(prefix)) && !/\s/.test(v) && v.length >= 8, {
    error: `${name} is not valid: it must ${prefix ? `start with ${prefix}, ` : ''}be 8 characters or more and contain no spaces; copy it from ${where}`,
  });
const channelId = (name: string, unset = '') =>
  optional(
    z.string().regex(/^[CG][A-Z0-9]{2,}$/, {
      error: `${name} must be a channel id such as C0123ABCD (channel details > About, at the bottom)${unset}`,
    }),
  );
const timeOfDay = (name: string, what: string) =>
  optional(
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${name} must be a 24-hour time HH:MM, e.g. 09:00 (${what})` }),
  );
const timeZone = (name: string, unset = '') =>
  optional(
    z.string().refine(isTimeZone, {
      error: `${name} must be an IANA time zone name such as UTC, Europe/Rome or America/New_York${unset}`,
    }),
  );
const budgetShare = (name: string) => {
  const range = `between 0.05 and 1, e.g. 0.2 (a fifth of the rate budget)`;
  return optional(
    z.coerce
      .number({ error: `${name} must be a number ${range}` })
      .min(0.05, { error: `${name} must be ${range}` })
      .max(1, { error: `${name} must be ${range}` }),
  );
};

const schema = z.object({
  SLACK_BOT_TOKEN: optional(secret('SLACK_BOT_TOKEN', 'xoxb-', 'OAuth & Permissions > Bot User OAuth Token')),
  SLACK_SIGNING_SECRET: optional(
    secret('SLACK_SIGNING_SECRET', undefined, 'Basic Information > App Credentials > Signing Secret'),
  ),
  SLACK_APP_TOKEN: optional(
    secret('SLACK_APP_TOKEN', 'xapp-', 'Basic Information > App-Level Tokens (scope connections:write)'),
  ),
  SLACK_API_URL: optional(httpUrl('SLACK_API_URL', 'https://slack.com/api/ (leave unset for Slack itself)')),
  PORT: optional(int('PORT', 0, 65535, 'the HTTP port, default 3000')),
  LICENSING_API_URL: optional(
    httpUrl('LICENSING_API_URL', 'https://www.sqlbi.com/api/licensing (the base URL without /v1)'),
  ),
  LICENSING_API_TOKEN: optional(secret('LICENSING_API_TOKEN', undefined, 'the license web interface (API tokens)')),
  LICENSING_RATE_LIMIT_PER_MINUTE: optional(int('LICENSING_RATE_LIMIT_PER_MINUTE', 1, 1000, 'default 25')),
  LICENSING_TIMEOUT_MS: optional(int('LICENSING_TIMEOUT_MS', 1000, 120_000, 'per request, default 10000')),
  LICENSING_CACHE_TTL_SECONDS: optional(int('LICENSING_CACHE_TTL_SECONDS', 0, 3600, '0 disables, default 30')),
  LICENSE_ADMINS: optional(
    z.string().regex(ID_LIST, {
      error:
        'LICENSE_ADMINS must be comma-separated Slack user ids (U… or W…) or user-group ids (S…), e.g. U0123ABCD,S0456EFGH; copy ids from a profile (⋮ > Copy member ID)',
    }),
  ),
  LICENSE_VIEWERS: optional(
    z.string().refine((v) => v.trim() === '*' || ID_LIST.test(v), {
      error:
        'LICENSE_VIEWERS must be * (every member) or comma-separated Slack user ids (U… or W…) or user-group ids (S…)',
    }),
  ),
  AUDIT_CHANNEL: channelId('AUDIT_CHANNEL'),
  AUDIT_RETENTION_DAYS: optional(
    int(
      'AUDIT_RETENTION_DAYS',
      1,
      36_500,
      'days an audit entry is kept before it is deleted; leave it unset to keep every entry',
    ),
  ),
  PROGRESS_NOT_STARTED_DAYS: optional(
    int('PROGRESS_NOT_STARTED_DAYS', 1, 3650, 'days at 0 % after the start before a holder counts as not started'),
  ),
  PROGRESS_STALLED_DAYS: optional(
    int('PROGRESS_STALLED_DAYS', 1, 3650, 'days without progress before a holder counts as stalled'),
  ),
  PROGRESS_RETURN_COMPLETED: optional(
    z.enum(['on', 'off'], {
      error:
        'PROGRESS_RETURN_COMPLETED must be off (the default: admins return finished seats with the button) or on (License Desk returns them after each daily pass)',
    }),
  ),
  PROGRESS_RETURN_AFTER_DAYS: optional(
    int('PROGRESS_RETURN_AFTER_DAYS', 0, 365, 'days after a completion was first seen before its seat is returned'),
  ),
  PROGRESS_RETURN_MAX: optional(int('PROGRESS_RETURN_MAX', 1, 1000, 'seats returned at most after one pass')),
  LEAVER_GRACE_DAYS: optional(
    z.string().refine((v) => leaverSettingsOf(v) !== undefined, { error: LEAVER_GRACE_PROBLEM }),
  ),
  RECLAIM_KEEP_DAYS: optional(
    int('RECLAIM_KEEP_DAYS', 1, 3650, 'days a holder who chose Keep is left out of reclaim rounds'),
  ),
  RECLAIM_DEADLINE_DAYS: optional(int('RECLAIM_DEADLINE_DAYS', 1, 90, 'days a holder has to answer a reclaim round')),
  RECLAIM_REMINDER_DAY: optional(
    int(
      'RECLAIM_REMINDER_DAY',
      1,
      89,
      'the day of a reclaim round on which the holders who did not answer are reminded',
    ),
  ),
  REDIS_URL: optional(
    z.url({
      protocol: /^rediss?$/,
      error: 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379',
    }),
  ),
  DATABASE_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error:
        'DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://desk:secret@db.internal:5432/license_desk; a / ? # @ or : in the password must be percent-encoded (/ as %2F, ? as %3F, # as %23, @ as %40, : as %3A)',
    }),
  ),
  LOG_LEVEL: optional(
    z.enum(['debug', 'info', 'warn', 'error'], { error: 'LOG_LEVEL must be one of debug, info, warn, error' }),
  ),
  DATA_DIR: optional(
    z.string().refine((v) => !/[\0\r\n]/.test(v), {
      error: 'DATA_DIR must be a directory path such as ./data or /var/lib/license-desk',
    }),
  ),
  ALERT_CHANNEL: channelId('ALERT_CHANNEL'),
  ALERT_TIME: timeOfDay('ALERT_TIME', 'the daily alert check'),
  ALERT_TIMEZONE: timeZone('ALERT_TIMEZONE'),
  HOME_BUDGET_SHARE: budgetShare('HOME_BUDGET_SHARE'),
  LEARNER_REMIND_DAYS: optional(
    z
      .string()
      .trim()
      .regex(/^(off|[1-9]|[1-8][0-9]|90)$/, {
        error:
          'LEARNER_REMIND_DAYS must be off or a whole number of days from 1 to 90 (days before a license ends that its holder is reminded; default 7)',
      }),
  ),
  TWO_PERSON_MIN_ROWS: optional(
    int(
      'TWO_PERSON_MIN_ROWS',
      0,
      100000,
      'rows or holders a mass change may have before a second admin must approve it; 0 turns the rule off',
    ),
  ),
  TWO_PERSON_EXPIRY_HOURS: optional(
    int('TWO_PERSON_EXPIRY_HOURS', 1, 720, 'hours a held mass change waits for a second admin before it expires'),
  ),
  PROGRESS_PASS: optional(
    z.enum(['on', 'off'], { error: 'PROGRESS_PASS must be on (the daily progress pass, the default) or off' }),
  ),
  PROGRESS_BUDGET_SHARE: budgetShare('PROGRESS_BUDGET_SHARE'),
  CONSOLE: optional(
    z.enum(['0', '1'], {
      error: 'CONSOLE must be 1 (serve the local console at http://localhost:PORT/) or 0 (no console)',
    }),
  ),
  REQUESTERS: z
    .string()
    .refine((v) => v.trim() === '' || v.trim() === '*' || ID_LIST.test(v), {
      error:
        'REQUESTERS must be * (every full member, the default), comma-separated Slack user ids (U… or W…) or user-group ids (S…), or empty to turn course requests off',
    })
    .optional(),
  REQUESTS_CHANNEL: channelId('REQUESTS_CHANNEL'),
  REQUEST_REMIND_HOURS: optional(
    int('REQUEST_REMIND_HOURS', 1, 720, 'hours before the approvers are reminded of an undecided request, default 24'),
  ),
  REQUEST_EXPIRY_DAYS: optional(
    int('REQUEST_EXPIRY_DAYS', 1, 90, 'days before an undecided request expires, default 7'),
  ),
  REQUEST_ESCALATE_HOURS: optional(
    int(
      'REQUEST_ESCALATE_HOURS',
      1,
      720,
      'hours an undecided request waits before it is escalated to the owners or REQUEST_ESCALATE_TO; unset: never',
    ),
  ),
  REQUEST_ESCALATE_TO: z
    .string()
    .refine((v) => v.trim() === '' || ID_LIST.test(v), {
      error:
        'REQUEST_ESCALATE_TO must be comma-separated Slack user ids (U… or W…) or user-group ids (S…), e.g. a backup group of approvers',
    })
    .optional(),
  REQUEST_BUSINESS_DAYS: z
    .string()
    .refine((v) => v.trim() === '' || typeof parseBusinessDays(v) !== 'string', {
      error: 'REQUEST_BUSINESS_DAYS must name the days that count toward an escalation, e.g. mon-fri or sun-thu',
    })
    .optional(),
  REQUEST_TIMEZONE: timeZone('REQUEST_TIMEZONE', ' (the business days and the daily list; unset: UTC)'),
  APPROVER_DAILY_LIST_TIME: timeOfDay('APPROVER_DAILY_LIST_TIME', 'the approvers’ daily list'),
  REQUEST_MAX_OPEN: optional(
    int('REQUEST_MAX_OPEN', 1, 50, 'course requests one person may have waiting for a decision at once, default 3'),
  ),
  REQUEST_MAX_PER_DAY: optional(
    int('REQUEST_MAX_PER_DAY', 1, 200, 'course requests one person may make in 24 hours, default 10'),
  ),
  WAITLIST_OFFER_HOURS: optional(
    int(
      'WAITLIST_OFFER_HOURS',
      0,
      720,
      'hours a freed seat is held for the first in line to claim, default 48; 0 assigns it at once',
    ),
  ),
  OFFER_NOT_STARTED_DAYS: optional(
    int(
      'OFFER_NOT_STARTED_DAYS',
      1,
      3650,
      'days after which a seat claimed from the waitlist still at 0 % is asked about, default 14',
    ),
  ),
  SHUTDOWN_DRAIN_SECONDS: optional(
    int('SHUTDOWN_DRAIN_SECONDS', 0, 300, 'how long a stop waits for changes in flight, default 20'),
  ),
  BULK_TAKEOVER_SECONDS: optional(
    int(
      'BULK_TAKEOVER_SECONDS',
      2,
      600,
      "how long a stopped replica's bulk job waits before another replica takes it over (its lease), default 30",
    ),
  ),
  DIGEST_CHANNEL: channelId('DIGEST_CHANNEL', '; unset, the weekly digest goes to the alert channel'),
  DIGEST_DAY: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], {
        error: 'DIGEST_DAY must be one of mon, tue, wed, thu, fri, sat, sun (the weekly digest’s day, default mon)',
      }),
    ),
  ),
  DIGEST_TIME: timeOfDay('DIGEST_TIME', 'when the weekly digest is posted'),
  DIGEST_TZ: timeZone('DIGEST_TZ', ' (unset: ALERT_TIMEZONE, else UTC)'),
  SLACKBOT_MCP: optional(z.enum(['on', 'off'], { error: SLACKBOT_MCP_PROBLEM })),
  MCP_UNSIGNED_TEST_IDENTITY: optional(z.string().trim().regex(USER_ID, { error: TEST_IDENTITY_PROBLEM })),
});

/** Every setting License Desk reads from the environment (README's table and .env.example list each). */
export const SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

/** A URL whose host is this machine's loopback interface (127.0.0.0/8, ::1 or localhost). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url.trim()).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const ids = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

type Settings = z.output<typeof schema>;
/** Whether a variable is set to something other than blanks. */
type IsSet = (name: string) => boolean;

export function parseConfig(env: Env): ConfigResult {
  const parsed = schema.safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  // Cross-field rules are checked on the raw values too, so that one run lists every problem.
  const set: IsSet = (name) => (env[name] ?? '').trim() !== '';
  problems.push(
    ...pairProblems(set),
    ...localDemoProblems(env, set),
    ...urlShapeProblems(env, set, parsed.error),
    ...accessProblems(env, set),
    ...consoleProblems(env, set),
    ...(set('REQUEST_BUSINESS_DAYS') && !set('REQUEST_TIMEZONE')
      ? [
          'REQUEST_BUSINESS_DAYS needs REQUEST_TIMEZONE (an IANA zone such as Europe/Berlin): the days are counted there',
        ]
      : []),
    ...testIdentityProblems(set, (env.SLACKBOT_MCP ?? '').trim() === 'on'),
  );
  if (!parsed.success || problems.length > 0) return { ok: false, problems: [...new Set(problems)] };
  return configOf(parsed.data);
}

/** Settings that only work together. */
function pairProblems(set: IsSet): string[] {
  const problems: string[] = [];
  if (set('SLACK_BOT_TOKEN') !== set('SLACK_SIGNING_SECRET')) {
    const missing = set('SLACK_BOT_TOKEN') ? 'SLACK_SIGNING_SECRET' : 'SLACK_BOT_TOKEN';
    problems.push(
      `${missing} is missing: set both SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET for a real Slack workspace, or neither for the local demo`,
    );
  }
  if (set('SLACK_APP_TOKEN') && !set('SLACK_BOT_TOKEN') && !set('SLACK_SIGNING_SECRET')) {
    problems.push(
      'SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are not: Socket Mode needs all three',
    );
  }
  if (set('LICENSING_API_URL') !== set('LICENSING_API_TOKEN')) {
    const missing = set('LICENSING_API_URL') ? 'LICENSING_API_TOKEN' : 'LICENSING_API_URL';
    problems.push(
      `${missing} is missing: set both LICENSING_API_URL and LICENSING_API_TOKEN for the real licensing API, or neither for the sandbox with demo data`,
    );
  }
  // REDIS_URL means several replicas; their records need one database they all reach. (The local demo
  // refuses REDIS_URL below in its own words.)
  const slackApp = set('SLACK_BOT_TOKEN') || set('SLACK_SIGNING_SECRET');
  if (set('REDIS_URL') && !set('DATABASE_URL') && slackApp) {
    problems.push(
      'REDIS_URL is set but DATABASE_URL is not: several replicas need one database for their records, and the default SQLite file in DATA_DIR belongs to one process. Set DATABASE_URL to a PostgreSQL database every replica reaches (e.g. postgres://desk:secret@db.internal:5432/license_desk), or unset REDIS_URL to run one process',
    );
  }
  return problems;
}

/**
 * The local demo accepts requests signed with DEMO_SIGNING_SECRET, which anyone can read in the
 * source: whatever the demo reaches, anyone on this machine can change. So it reaches stand-ins only
 * (the sandbox, the local Slack double, its own DATA_DIR), never shared or real state. A licensing
 * service given by URL must be on loopback here, and main.ts checks at start-up that it answers as
 * a sandbox (x-licensing-sandbox: 1) before anything is served.
 */
function localDemoProblems(env: Env, set: IsSet): string[] {
  if (set('SLACK_BOT_TOKEN') || set('SLACK_SIGNING_SECRET')) return [];
  const problems: string[] = [];
  const why =
    'with no SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET the app is the local demo, which accepts requests signed with a secret published in its source';
  if (set('REDIS_URL')) {
    problems.push(
      `REDIS_URL cannot be used by the local demo: ${why}, so anyone on this machine could change the state kept in that Redis. Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app, or unset REDIS_URL`,
    );
  }
  // The records of a real deployment (requests, waitlist, audit trail, messages to people): the
  // demo keeps its own, fresh at each start, in DATA_DIR/local-demo (src/main.ts).
  if (set('DATABASE_URL')) {
    problems.push(
      `DATABASE_URL cannot be used by the local demo: ${why}, so anyone on this machine could read and change the records in that database. Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app, or unset DATABASE_URL (the demo keeps records of its own in DATA_DIR)`,
    );
  }
  // CONSOLE=1 refuses any LICENSING_API_URL below, in its own words.
  const consoleSays = (env.CONSOLE ?? '').trim() === '1';
  if (set('LICENSING_API_URL') && !consoleSays && !isLoopbackUrl(env.LICENSING_API_URL ?? '')) {
    problems.push(
      `LICENSING_API_URL cannot be used by the local demo: ${why}, so anyone could change real licenses. Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app, or unset LICENSING_API_URL and LICENSING_API_TOKEN for the built-in sandbox (a sandbox of npm run sandbox on 127.0.0.1 is also allowed)`,
    );
  }
  return problems;
}

/**
 * A URL the driver would read otherwise than its author meant (it would also show part of the password
 * as a host or a path): refused, without repeating it. One sentence per variable.
 */
function urlShapeProblems(env: Env, set: IsSet, error: z.ZodError | undefined): string[] {
  const problems: string[] = [];
  for (const name of ['DATABASE_URL', 'REDIS_URL']) {
    const shape = set(name) ? databaseUrlProblem(name, env[name] ?? '') : undefined;
    if (shape && !error?.issues.some((i) => i.path[0] === name)) problems.push(shape);
  }
  return problems;
}

/** The demo's published secret, and an admin list of everyone. */
function accessProblems(env: Env, set: IsSet): string[] {
  const problems: string[] = [];
  if ((env.SLACK_SIGNING_SECRET ?? '').trim() === DEMO_SIGNING_SECRET) {
    problems.push(
      "SLACK_SIGNING_SECRET is the local demo's published secret: copy your Slack app's own from Basic Information > App Credentials > Signing Secret",
    );
  }
  if (set('LICENSE_ADMINS') && (env.LICENSE_ADMINS ?? '').includes('*')) {
    problems.push('LICENSE_ADMINS cannot be *: list the people or user groups who may change licenses');
  }
  return problems;
}

/**
 * The console signs requests with the demo's public secret and lets anyone on the machine act as
 * any user: it only ever plays Slack itself, on sandbox data.
 */
function consoleProblems(env: Env, set: IsSet): string[] {
  if ((env.CONSOLE ?? '').trim() !== '1') return [];
  const problems: string[] = [];
  if (set('SLACK_BOT_TOKEN') || set('SLACK_SIGNING_SECRET') || set('SLACK_APP_TOKEN')) {
    problems.push(
      'CONSOLE=1 cannot run beside a real Slack workspace: the console plays Slack itself. Unset CONSOLE, or unset the SLACK_* settings for the local demo',
    );
  }
  if (set('LICENSING_API_URL') || set('LICENSING_API_TOKEN')) {
    problems.push(
      'CONSOLE=1 runs on the sandbox only: the console lets anyone on this machine act as a license admin. Unset CONSOLE, or unset LICENSING_API_URL and LICENSING_API_TOKEN',
    );
  }
  return problems;
}

/** The Config of settings that passed every check (the reclaim days are checked against each other here). */
function configOf(e: Settings): ConfigResult {
  const slack = slackOf(e);
  const licensing = licensingOf(e);
  const reclaim = reclaimSettings({
    notStartedDays: e.PROGRESS_NOT_STARTED_DAYS,
    stalledDays: e.PROGRESS_STALLED_DAYS,
    keepDays: e.RECLAIM_KEEP_DAYS,
    deadlineDays: e.RECLAIM_DEADLINE_DAYS,
    reminderDay: e.RECLAIM_REMINDER_DAY,
  });
  if (reclaim.reminderDay >= reclaim.deadlineDays) {
    return {
      ok: false,
      problems: [
        `RECLAIM_REMINDER_DAY (${reclaim.reminderDay}) must be before the deadline, RECLAIM_DEADLINE_DAYS (${reclaim.deadlineDays})`,
      ],
    };
  }
  // On by default in the local demo on sandbox data; CONSOLE=0 turns it off.
  const consoleOn = slack.mode === 'demo' && licensing.mode === 'sandbox' && e.CONSOLE !== '0';
  // The console shows the audit and alert channels, so the demo gets channels of its own.
  const auditChannel = e.AUDIT_CHANNEL ?? (consoleOn ? CONSOLE_DEMO.auditChannel : undefined);
  const alertChannel = e.ALERT_CHANNEL ?? (consoleOn && !e.AUDIT_CHANNEL ? CONSOLE_DEMO.alertChannel : auditChannel);
  const viewers = e.LICENSE_VIEWERS?.trim() === '*' ? '*' : ids(e.LICENSE_VIEWERS);
  const digestChannel = e.DIGEST_CHANNEL ?? alertChannel;
  const config: Config = {
    slack,
    licensing,
    admins: ids(e.LICENSE_ADMINS),
    reclaim,
    // The console's switcher offers a viewer: unless LICENSE_VIEWERS says otherwise, the demo has one.
    viewers: consoleOn && viewers !== '*' && viewers.length === 0 ? [...CONSOLE_DEMO.viewers] : viewers,
    logLevel: e.LOG_LEVEL ?? 'info',
    dataDir: e.DATA_DIR?.trim() ?? './data',
    alerts: {
      ...(alertChannel ? { channel: alertChannel } : {}),
      time: e.ALERT_TIME ?? '09:00',
      timeZone: e.ALERT_TIMEZONE ?? 'UTC',
    },
    homeBudgetShare: e.HOME_BUDGET_SHARE ?? 0.2,
    progress: progressOf(e),
    leavers: leaverSettingsOf(e.LEAVER_GRACE_DAYS) ?? LEAVER_DEFAULTS,
    console: consoleOn,
    drainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? 20) * 1000,
    requests: requestsOf(e, consoleOn),
    learners: learnerSettings(e.LEARNER_REMIND_DAYS),
    twoPerson: twoPersonSettings({ minRows: e.TWO_PERSON_MIN_ROWS, expiryHours: e.TWO_PERSON_EXPIRY_HOURS }),
    slackbot: slackbotSettingsOf(e.SLACKBOT_MCP, e.MCP_UNSIGNED_TEST_IDENTITY),
    digest: {
      ...(digestChannel ? { channel: digestChannel } : {}),
      day: e.DIGEST_DAY ?? 'mon',
      time: e.DIGEST_TIME ?? '09:00',
      timeZone: e.DIGEST_TZ ?? e.ALERT_TIMEZONE ?? 'UTC',
    },
  };
  if (e.BULK_TAKEOVER_SECONDS !== undefined) config.bulkTakeoverMs = e.BULK_TAKEOVER_SECONDS * 1000;
  if (auditChannel) config.auditChannel = auditChannel;
  if (e.AUDIT_RETENTION_DAYS !== undefined) config.auditRetentionDays = e.AUDIT_RETENTION_DAYS;
  if (e.REDIS_URL) config.redisUrl = e.REDIS_URL;
  if (e.DATABASE_URL) config.databaseUrl = e.DATABASE_URL;
  return { ok: true, config };
}

function slackOf(e: Settings): SlackConfig {
  const port = e.PORT ?? 3000;
  if (!e.SLACK_BOT_TOKEN || !e.SLACK_SIGNING_SECRET) return { mode: 'demo', port };
  const apiUrl = e.SLACK_API_URL ? { apiUrl: e.SLACK_API_URL } : {};
  const common = { botToken: e.SLACK_BOT_TOKEN, signingSecret: e.SLACK_SIGNING_SECRET, ...apiUrl, port };
  return e.SLACK_APP_TOKEN ? { mode: 'socket', ...common, appToken: e.SLACK_APP_TOKEN } : { mode: 'http', ...common };
}

function licensingOf(e: Settings): LicensingConfig {
  const knobs = {
    rateLimitPerMinute: e.LICENSING_RATE_LIMIT_PER_MINUTE ?? 25,
    timeoutMs: e.LICENSING_TIMEOUT_MS ?? 10_000,
    cacheTtlMs: (e.LICENSING_CACHE_TTL_SECONDS ?? 30) * 1000,
  };
  return e.LICENSING_API_URL && e.LICENSING_API_TOKEN
    ? { mode: 'api', url: e.LICENSING_API_URL, token: e.LICENSING_API_TOKEN, ...knobs }
    : { mode: 'sandbox', ...knobs };
}

function progressOf(e: Settings): ProgressConfig {
  return {
    pass: e.PROGRESS_PASS !== 'off',
    budgetShare: e.PROGRESS_BUDGET_SHARE ?? 0.2,
    notStartedDays: e.PROGRESS_NOT_STARTED_DAYS ?? 14,
    stalledDays: e.PROGRESS_STALLED_DAYS ?? 30,
    autoReturn: {
      on: e.PROGRESS_RETURN_COMPLETED === 'on',
      afterDays: e.PROGRESS_RETURN_AFTER_DAYS ?? 7,
      max: e.PROGRESS_RETURN_MAX ?? 25,
    },
  };
}

function requestsOf(e: Settings, consoleOn: boolean): RequestsConfig {
  return {
    // Unset: every full member; set but empty: nobody (requests off).
    requesters: e.REQUESTERS === undefined || e.REQUESTERS.trim() === '*' ? '*' : ids(e.REQUESTERS),
    // The console shows the request cards in a channel of its own too.
    ...(e.REQUESTS_CHANNEL || consoleOn ? { channel: e.REQUESTS_CHANNEL ?? CONSOLE_DEMO.requestsChannel } : {}),
    remindHours: e.REQUEST_REMIND_HOURS ?? 24,
    expiryDays: e.REQUEST_EXPIRY_DAYS ?? 7,
    maxOpen: e.REQUEST_MAX_OPEN ?? 3,
    maxPerDay: e.REQUEST_MAX_PER_DAY ?? 10,
    offerHours: e.WAITLIST_OFFER_HOURS ?? 48,
    offerNotStartedDays: e.OFFER_NOT_STARTED_DAYS ?? 14,
    approvals: approvalsOf(e),
  };
}

/** Escalation (off unless REQUEST_ESCALATE_HOURS), its business days, and the approvers' daily list. */
function approvalsOf(e: Settings): ApprovalsConfig {
  const timeZone = e.REQUEST_TIMEZONE ?? 'UTC';
  const days = e.REQUEST_BUSINESS_DAYS ? parseBusinessDays(e.REQUEST_BUSINESS_DAYS) : undefined;
  return {
    ...(e.REQUEST_ESCALATE_HOURS !== undefined ? { escalateHours: e.REQUEST_ESCALATE_HOURS } : {}),
    escalateTo: ids(e.REQUEST_ESCALATE_TO),
    ...(days && typeof days !== 'string' && e.REQUEST_TIMEZONE ? { calendar: { days, timeZone } } : {}),
    dailyListTime: e.APPROVER_DAILY_LIST_TIME ?? '09:00',
    timeZone,
  };
}

/** The one place that reads the process environment. */
export function readConfig(): ConfigResult {
  return parseConfig(process.env);
}

export type StorageConfigResult =
  | { ok: true; dataDir: string; databaseUrl?: string }
  | { ok: false; problems: string[] };

/**
 * Where the records are (DATA_DIR, DATABASE_URL), checked as the app checks them, for `npm run backup`:
 * an operator may run it where the Slack settings are not (they live in the service's environment), so
 * the rest of the settings, and the local demo's rules, play no part.
 */
export function parseStorageConfig(env: Env): StorageConfigResult {
  const parsed = schema.pick({ DATA_DIR: true, DATABASE_URL: true }).safeParse(env);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  const url = (env.DATABASE_URL ?? '').trim();
  const shape = url && parsed.success ? databaseUrlProblem('DATABASE_URL', url) : undefined;
  if (shape) problems.push(shape);
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const { DATA_DIR, DATABASE_URL } = parsed.data;
  return { ok: true, dataDir: DATA_DIR?.trim() ?? './data', ...(DATABASE_URL ? { databaseUrl: DATABASE_URL } : {}) };
}

export function readStorageConfig(): StorageConfigResult {
  return parseStorageConfig(process.env);
}

/**
 * For the commands beside the app (npm run backup, npm run import-old-records): .env in the working
 * directory read as the app reads it, then DATA_DIR and DATABASE_URL; or what to print and exit 1 with.
 */
export function readCommandStorage():
  | { ok: true; dataDir: string; databaseUrl?: string }
  | { ok: false; text: string } {
  const envFile = loadEnvFile();
  if ('problem' in envFile) return { ok: false, text: envFile.problem };
  const config = readStorageConfig();
  return config.ok ? config : { ok: false, text: formatProblems(config.problems) };
}

/** Values that must never reach a log line or a user. */
export function secretsOf(config: Config): string[] {
  const out: string[] = [];
  if (config.slack.mode !== 'demo') out.push(config.slack.botToken, config.slack.signingSecret);
  if (config.slack.mode === 'socket') out.push(config.slack.appToken);
  if (config.licensing.mode === 'api') out.push(config.licensing.token);
  for (const url of [config.redisUrl, config.databaseUrl]) if (url) out.push(...databaseUrlSecrets(url));
  return out;
}

export function formatProblems(problems: string[]): string {
  return [
    `License Desk cannot start: ${problems.length} configuration problem${problems.length === 1 ? '' : 's'}.`,
    ...problems.map((p) => `  - ${p}`),
    'See .env.example for every setting.',
  ].join('\n');
}
