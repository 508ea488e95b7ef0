import { describe, expect, it } from 'vitest';
import { formatProblems, parseConfig, secretsOf } from '../../src/kernel/config/config.js';

const BOT = 'xoxb-S3KR1Tbt';
const SIGNING = 'f00dfeedS3KR1Tsigning0123456789';
const APP = 'xapp-1-S3KR1Tap';
const LIC = 'lic-S3KR1T-token-0123456789';
const PG = 'postgres://desk:db-s3cret@db.internal:5432/license_desk';
const full = {
  SLACK_BOT_TOKEN: BOT,
  SLACK_SIGNING_SECRET: SIGNING,
  LICENSING_API_URL: 'https://www.sqlbi.com/api/licensing',
  LICENSING_API_TOKEN: LIC,
};

function problems(env: Record<string, string | undefined>): string[] {
  const r = parseConfig(env);
  if (r.ok) throw new Error('expected problems');
  return r.problems;
}

describe('parseConfig', () => {
  it('with nothing set: local demo mode with the sandbox, the local console and its demo cast', () => {
    const r = parseConfig({});
    expect(r).toEqual({
      ok: true,
      config: {
        slack: { mode: 'demo', port: 3000 },
        licensing: { mode: 'sandbox', rateLimitPerMinute: 25, timeoutMs: 10_000, cacheTtlMs: 30_000 },
        admins: [],
        reclaim: { notStartedDays: 14, stalledDays: 30, keepDays: 60, deadlineDays: 7, reminderDay: 4 },
        viewers: ['U0DEMOVWR1'],
        auditChannel: 'C0DEMOAUDT',
        logLevel: 'info',
        dataDir: './data',
        alerts: { channel: 'C0DEMOALRT', time: '09:00', timeZone: 'UTC' },
        digest: { channel: 'C0DEMOALRT', day: 'mon', time: '09:00', timeZone: 'UTC' },
        homeBudgetShare: 0.2,
        leavers: { on: true, graceDays: 7 },
        learners: { remindDays: 7 },
        twoPerson: { minRows: 20, expiryHours: 24 },
        slackbot: { on: false },
        progress: {
          pass: true,
          budgetShare: 0.2,
          notStartedDays: 14,
          stalledDays: 30,
          autoReturn: { on: false, afterDays: 7, max: 25 },
        },
        console: true,
        drainMs: 20_000,
        requests: {
          requesters: '*',
          channel: 'C0DEMORQST',
          remindHours: 24,
          expiryDays: 7,
          maxOpen: 3,
          maxPerDay: 10,
          offerHours: 48,
          offerNotStartedDays: 14,
          approvals: { dailyListTime: '09:00', escalateTo: [], timeZone: 'UTC' },
        },
      },
    });
  });

  it('RECLAIM_REMINDER_DAY must come before the deadline', () => {
    expect(problems({ ...full, RECLAIM_DEADLINE_DAYS: '5', RECLAIM_REMINDER_DAY: '5' })).toEqual([
      'RECLAIM_REMINDER_DAY (5) must be before the deadline, RECLAIM_DEADLINE_DAYS (5)',
    ]);
  });

  it('AUDIT_RETENTION_DAYS: unset keeps every audit entry; a positive whole number of days; anything else is refused', () => {
    const unset = parseConfig(full);
    expect(unset.ok && unset.config.auditRetentionDays).toBeUndefined();
    const set = parseConfig({ ...full, AUDIT_RETENTION_DAYS: ' 365 ' });
    expect(set.ok && set.config.auditRetentionDays).toBe(365);
    const empty = parseConfig({ ...full, AUDIT_RETENTION_DAYS: '' });
    expect(empty.ok && empty.config.auditRetentionDays).toBeUndefined();
    const meaning = 'days an audit entry is kept before it is deleted; leave it unset to keep every entry';
    for (const bad of ['0', '-5', '100000']) {
      expect(problems({ ...full, AUDIT_RETENTION_DAYS: bad })).toEqual([
        `AUDIT_RETENTION_DAYS must be between 1 and 36500 (${meaning})`,
      ]);
    }
    for (const bad of ['30d', '1.5', 'forever']) {
      expect(problems({ ...full, AUDIT_RETENTION_DAYS: bad })).toEqual([
        `AUDIT_RETENTION_DAYS must be a whole number (${meaning})`,
      ]);
    }
  });

  it('CONSOLE=0: the local demo without the console keeps the plain defaults', () => {
    const r = parseConfig({ CONSOLE: '0' });
    expect(r.ok && r.config).toMatchObject({ console: false, viewers: [], alerts: { time: '09:00' } });
    expect(r.ok && r.config.auditChannel).toBeUndefined();
    expect(r.ok && r.config.alerts.channel).toBeUndefined();
  });

  it('the console keeps the settings that are given: viewers, audit and alert channels', () => {
    const r = parseConfig({ LICENSE_VIEWERS: '*', AUDIT_CHANNEL: 'C0LICAUDIT' });
    expect(r.ok && r.config).toMatchObject({
      console: true,
      viewers: '*',
      auditChannel: 'C0LICAUDIT',
      alerts: { channel: 'C0LICAUDIT' },
    });
  });

  it('CONSOLE=1 is refused beside a real Slack workspace or the real licensing API, saying what to unset', () => {
    expect(problems({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING, CONSOLE: '1' })).toEqual([
      expect.stringMatching(/^CONSOLE=1 cannot run beside a real Slack workspace.*Unset CONSOLE/),
    ]);
    expect(problems({ LICENSING_API_URL: full.LICENSING_API_URL, LICENSING_API_TOKEN: LIC, CONSOLE: '1' })).toEqual([
      expect.stringMatching(/^CONSOLE=1 runs on the sandbox only.*unset LICENSING_API_URL and LICENSING_API_TOKEN/),
    ]);
    expect(problems({ CONSOLE: 'yes' })).toEqual([expect.stringMatching(/^CONSOLE must be 1 .* or 0/)]);
    // Unset beside real services: simply off, no complaint.
    const real = parseConfig(full);
    expect(real.ok && real.config.console).toBe(false);
    expect(parseConfig({ CONSOLE: '1' })).toMatchObject({ ok: true, config: { console: true } });
  });

  it('the local demo (its signing secret is published) reaches no real state: no REDIS_URL, a licensing URL on loopback only', () => {
    const fix = /Set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET of your Slack app, or unset/;
    expect(problems({ REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([
      expect.stringMatching(/^REDIS_URL cannot be used by the local demo: .*published in its source/),
    ]);
    expect(problems({ REDIS_URL: 'redis://127.0.0.1:6379' })[0]).toMatch(fix);
    const api = { LICENSING_API_URL: full.LICENSING_API_URL, LICENSING_API_TOKEN: LIC };
    expect(problems(api)).toEqual([expect.stringMatching(/^LICENSING_API_URL cannot be used by the local demo/)]);
    expect(problems(api)[0]).toMatch(fix);
    // A sandbox of `npm run sandbox` on this machine: allowed here; main.ts checks that it says it is one.
    for (const url of ['http://127.0.0.1:4010', 'http://localhost:4010/', 'http://[::1]:4010', 'http://127.0.0.2:1']) {
      expect(parseConfig({ LICENSING_API_URL: url, LICENSING_API_TOKEN: LIC })).toMatchObject({ ok: true });
    }
    for (const url of ['http://127.0.0.1.nip.io:4010', 'http://10.0.0.5:4010', 'http://0.0.0.0:4010']) {
      expect(problems({ LICENSING_API_URL: url, LICENSING_API_TOKEN: LIC })).toHaveLength(1);
    }
    // With real Slack credentials, both are the ordinary production settings.
    expect(parseConfig({ ...full, REDIS_URL: 'redis://10.0.0.7:6379', DATABASE_URL: PG })).toMatchObject({ ok: true });
    // The demo's published secret is no Slack app's secret.
    expect(problems({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: 'license-desk-local-demo-signing-secret' })).toEqual([
      expect.stringMatching(/^SLACK_SIGNING_SECRET is the local demo's published secret/),
    ]);
  });

  it('treats empty values (a copied .env.example) as unset', () => {
    const r = parseConfig({ SLACK_BOT_TOKEN: '', SLACK_SIGNING_SECRET: ' ', PORT: '', LICENSE_VIEWERS: '' });
    expect(r.ok && r.config.slack.mode).toBe('demo');
  });

  it('the weekly digest: its own channel, day, time and zone, and clear words for a wrong one', () => {
    const r = parseConfig({
      DIGEST_CHANNEL: 'C0DIGEST01',
      DIGEST_DAY: 'Fri',
      DIGEST_TIME: '16:30',
      DIGEST_TZ: 'Asia/Tokyo',
      PROGRESS_STALLED_DAYS: '21',
    });
    expect(r.ok && r.config.digest).toEqual({
      channel: 'C0DIGEST01',
      day: 'fri',
      time: '16:30',
      timeZone: 'Asia/Tokyo',
    });
    expect(r.ok && r.config.progress).toMatchObject({ notStartedDays: 14, stalledDays: 21 });
    expect(
      problems({ DIGEST_DAY: 'monday', DIGEST_TIME: '9am', DIGEST_TZ: 'Mars/Base', PROGRESS_NOT_STARTED_DAYS: '0' }),
    ).toEqual([
      expect.stringMatching(/^PROGRESS_NOT_STARTED_DAYS must be between 1 and 3650/),
      expect.stringMatching(/^DIGEST_DAY must be one of mon, tue/),
      expect.stringMatching(/^DIGEST_TIME must be a 24-hour time HH:MM/),
      expect.stringMatching(/^DIGEST_TZ must be an IANA time zone/),
    ]);
  });

  it('HTTP mode with the real licensing API and every setting', () => {
    const r = parseConfig({
      ...full,
      SLACK_API_URL: 'http://127.0.0.1:4100/api/',
      PORT: '8080',
      LICENSING_RATE_LIMIT_PER_MINUTE: '20',
      LICENSING_TIMEOUT_MS: '5000',
      LICENSING_CACHE_TTL_SECONDS: '0',
      LICENSE_ADMINS: 'U0MGR00001, S0LICMGRS1',
      LICENSE_VIEWERS: 'W0VIEW0001,U0VIEW0002,',
      AUDIT_CHANNEL: 'C0LICAUDIT',
      REDIS_URL: 'redis://:pw@127.0.0.1:6379/0',
      DATABASE_URL: PG,
      LOG_LEVEL: 'debug',
      DATA_DIR: '/var/lib/license-desk',
      ALERT_CHANNEL: 'C0LICALERT',
      ALERT_TIME: '07:30',
      ALERT_TIMEZONE: 'Europe/Rome',
      HOME_BUDGET_SHARE: '0.5',
      SHUTDOWN_DRAIN_SECONDS: '45',
      REQUESTERS: 'U0REQ00001, S0LEARNERS',
      REQUESTS_CHANNEL: 'C0LICREQST',
      REQUEST_REMIND_HOURS: '12',
      REQUEST_EXPIRY_DAYS: '3',
      REQUEST_MAX_OPEN: '5',
      REQUEST_MAX_PER_DAY: '20',
      REQUEST_ESCALATE_HOURS: '48',
      REQUEST_ESCALATE_TO: 'S0BACKUP01',
      REQUEST_BUSINESS_DAYS: 'mon-fri',
      REQUEST_TIMEZONE: 'Europe/Berlin',
      APPROVER_DAILY_LIST_TIME: '08:30',
      LEARNER_REMIND_DAYS: '10',
      TWO_PERSON_MIN_ROWS: '0',
      TWO_PERSON_EXPIRY_HOURS: '48',
      WAITLIST_OFFER_HOURS: '0',
      OFFER_NOT_STARTED_DAYS: '21',
      PROGRESS_NOT_STARTED_DAYS: '10',
      PROGRESS_STALLED_DAYS: '21',
      PROGRESS_RETURN_COMPLETED: 'on',
      PROGRESS_RETURN_AFTER_DAYS: '14',
      PROGRESS_RETURN_MAX: '50',
      RECLAIM_KEEP_DAYS: '90',
      RECLAIM_DEADLINE_DAYS: '10',
      RECLAIM_REMINDER_DAY: '6',
    });
    expect(r).toEqual({
      ok: true,
      config: {
        slack: {
          mode: 'http',
          botToken: BOT,
          signingSecret: SIGNING,
          apiUrl: 'http://127.0.0.1:4100/api/',
          port: 8080,
        },
        licensing: {
          mode: 'api',
          url: 'https://www.sqlbi.com/api/licensing',
          token: LIC,
          rateLimitPerMinute: 20,
          timeoutMs: 5000,
          cacheTtlMs: 0,
        },
        admins: ['U0MGR00001', 'S0LICMGRS1'],
        reclaim: { notStartedDays: 10, stalledDays: 21, keepDays: 90, deadlineDays: 10, reminderDay: 6 },
        viewers: ['W0VIEW0001', 'U0VIEW0002'],
        auditChannel: 'C0LICAUDIT',
        redisUrl: 'redis://:pw@127.0.0.1:6379/0',
        databaseUrl: PG,
        logLevel: 'debug',
        dataDir: '/var/lib/license-desk',
        alerts: { channel: 'C0LICALERT', time: '07:30', timeZone: 'Europe/Rome' },
        digest: { channel: 'C0LICALERT', day: 'mon', time: '09:00', timeZone: 'Europe/Rome' },
        homeBudgetShare: 0.5,
        leavers: { on: true, graceDays: 7 },
        learners: { remindDays: 10 },
        twoPerson: { minRows: 0, expiryHours: 48 },
        slackbot: { on: false },
        progress: {
          pass: true,
          budgetShare: 0.2,
          notStartedDays: 10,
          stalledDays: 21,
          autoReturn: { on: true, afterDays: 14, max: 50 },
        },
        console: false,
        drainMs: 45_000,
        requests: {
          requesters: ['U0REQ00001', 'S0LEARNERS'],
          channel: 'C0LICREQST',
          remindHours: 12,
          expiryDays: 3,
          maxOpen: 5,
          maxPerDay: 20,
          offerHours: 0,
          offerNotStartedDays: 21,
          approvals: {
            escalateHours: 48,
            escalateTo: ['S0BACKUP01'],
            calendar: { days: new Set([1, 2, 3, 4, 5]), timeZone: 'Europe/Berlin' },
            dailyListTime: '08:30',
            timeZone: 'Europe/Berlin',
          },
        },
      },
    });
  });

  it('REQUESTERS: unset or * is every full member, set but empty turns requests off; bad values say how to fix them', () => {
    const requesters = (env: Record<string, string>) => {
      const r = parseConfig(env);
      return r.ok ? r.config.requests.requesters : r.problems;
    };
    expect(requesters({})).toBe('*');
    expect(requesters({ REQUESTERS: ' * ' })).toBe('*');
    expect(requesters({ REQUESTERS: '' })).toEqual([]);
    expect(String(requesters({ REQUESTERS: 'everyone' }))).toContain('REQUESTERS must be *');
    expect(problems({ REQUEST_EXPIRY_DAYS: '0', REQUESTS_CHANNEL: '#requests' })).toEqual([
      expect.stringContaining('REQUESTS_CHANNEL must be a channel id'),
      expect.stringContaining('REQUEST_EXPIRY_DAYS must be between 1 and 90'),
    ]);
    expect(problems({ WAITLIST_OFFER_HOURS: '-1', OFFER_NOT_STARTED_DAYS: 'soon' })).toEqual([
      expect.stringContaining('WAITLIST_OFFER_HOURS must be between 0 and 720'),
      expect.stringContaining('OFFER_NOT_STARTED_DAYS must be a whole number'),
    ]);
    expect(problems({ REQUEST_MAX_OPEN: '0', REQUEST_MAX_PER_DAY: 'lots' })).toEqual([
      expect.stringContaining('REQUEST_MAX_OPEN must be between 1 and 50'),
      expect.stringContaining('REQUEST_MAX_PER_DAY must be a whole number'),
    ]);
  });

  it('Socket Mode when SLACK_APP_TOKEN is set; viewers may be *', () => {
    const r = parseConfig({ ...full, SLACK_APP_TOKEN: APP, LICENSE_VIEWERS: '*' });
    expect(r.ok && r.config.slack).toEqual({
      mode: 'socket',
      botToken: BOT,
      signingSecret: SIGNING,
      appToken: APP,
      port: 3000,
    });
    expect(r.ok && r.config.viewers).toBe('*');
  });

  it('sandbox mode with real Slack settings', () => {
    const r = parseConfig({ SLACK_BOT_TOKEN: BOT, SLACK_SIGNING_SECRET: SIGNING });
    expect(r.ok && r.config.licensing.mode).toBe('sandbox');
    expect(r.ok && r.config.slack.mode).toBe('http');
  });

  it('refuses half a pair, naming what is missing', () => {
    expect(problems({ SLACK_BOT_TOKEN: BOT })).toEqual([
      expect.stringMatching(/^SLACK_SIGNING_SECRET is missing: set both/),
    ]);
    expect(problems({ SLACK_SIGNING_SECRET: SIGNING })).toEqual([expect.stringMatching(/^SLACK_BOT_TOKEN is missing/)]);
    expect(problems({ LICENSING_API_TOKEN: LIC })).toEqual([expect.stringMatching(/^LICENSING_API_URL is missing/)]);
    expect(problems({ LICENSING_API_URL: 'https://x.example' })).toEqual([
      expect.stringMatching(/^LICENSING_API_TOKEN is missing/),
      expect.stringMatching(/^LICENSING_API_URL cannot be used by the local demo/),
    ]);
    expect(problems({ SLACK_APP_TOKEN: APP })).toEqual([expect.stringMatching(/Socket Mode needs all three/)]);
  });

  it('lists every problem at once, each with its fix, and never a secret value', () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxp-S3KR1Tus',
      SLACK_SIGNING_SECRET: 'has S3KR1T spaces',
      SLACK_APP_TOKEN: 'xoxb-S3KR1Tna',
      SLACK_API_URL: 'ftp://slack',
      PORT: 'eighty',
      LICENSING_API_URL: 'not a url',
      LICENSING_API_TOKEN: 'S3KR1T',
      LICENSING_RATE_LIMIT_PER_MINUTE: '0',
      LICENSING_TIMEOUT_MS: '1.5',
      LICENSING_CACHE_TTL_SECONDS: '-1',
      LICENSE_ADMINS: '*',
      LICENSE_VIEWERS: 'dana.lee',
      AUDIT_CHANNEL: '#license-ops',
      REDIS_URL: 'http://redis',
      LOG_LEVEL: 'verbose',
      ALERT_CHANNEL: '#license-alerts',
      ALERT_TIME: '9am',
      ALERT_TIMEZONE: 'Mars/Olympus_Mons',
      HOME_BUDGET_SHARE: '20%',
    };
    const list = problems(env);
    for (const name of Object.keys(env)) {
      expect(
        list.some((p) => p.startsWith(name)),
        name,
      ).toBe(true);
    }
    expect(list.find((p) => p.startsWith('SLACK_BOT_TOKEN'))).toMatch(/xoxb-.*OAuth & Permissions/);
    expect(list.find((p) => p.startsWith('LICENSE_ADMINS'))).toBeDefined();
    const text = formatProblems(list);
    expect(text).toMatch(/^License Desk cannot start: \d+ configuration problems\./);
    expect(text).not.toMatch(/S3KR1T|pw@/);
  });

  it('alerts: ALERT_CHANNEL falls back to AUDIT_CHANNEL; no channel means alerts off', () => {
    const audit = parseConfig({ AUDIT_CHANNEL: 'C0LICAUDIT' });
    expect(audit.ok && audit.config.alerts).toEqual({ channel: 'C0LICAUDIT', time: '09:00', timeZone: 'UTC' });
    const both = parseConfig({ AUDIT_CHANNEL: 'C0LICAUDIT', ALERT_CHANNEL: 'G0LICALERT' });
    expect(both.ok && both.config.alerts.channel).toBe('G0LICALERT');
    const none = parseConfig({ CONSOLE: '0' });
    expect(none.ok && none.config.alerts.channel).toBeUndefined();
  });

  it('validates the App Home, alert and data settings with their fixes', () => {
    expect(problems({ ALERT_TIME: '24:00' })).toEqual([
      expect.stringMatching(/^ALERT_TIME must be a 24-hour time HH:MM/),
    ]);
    expect(problems({ ALERT_TIMEZONE: 'CEST+2' })).toEqual([expect.stringMatching(/^ALERT_TIMEZONE must be an IANA/)]);
    expect(problems({ HOME_BUDGET_SHARE: '0' })).toEqual([expect.stringMatching(/^HOME_BUDGET_SHARE must be between/)]);
    expect(problems({ HOME_BUDGET_SHARE: '1.5' })).toEqual([
      expect.stringMatching(/^HOME_BUDGET_SHARE must be between/),
    ]);
    expect(problems({ DATA_DIR: 'a\nb' })).toEqual([expect.stringMatching(/^DATA_DIR must be a directory path/)]);
    expect(parseConfig({ HOME_BUDGET_SHARE: '1', ALERT_TIME: '23:59', DATA_DIR: ' /tmp/x ' })).toMatchObject({
      ok: true,
      config: { homeBudgetShare: 1, alerts: { time: '23:59' }, dataDir: '/tmp/x' },
    });
  });

  it('PROGRESS_*: the daily pass on by default, its budget share validated like HOME_BUDGET_SHARE, day thresholds whole numbers', () => {
    expect(
      parseConfig({
        PROGRESS_PASS: 'off',
        PROGRESS_BUDGET_SHARE: '0.1',
        PROGRESS_NOT_STARTED_DAYS: '7',
        PROGRESS_STALLED_DAYS: '21',
      }),
    ).toMatchObject({
      ok: true,
      config: {
        progress: { pass: false, budgetShare: 0.1, notStartedDays: 7, stalledDays: 21 },
      },
    });
    expect(problems({ PROGRESS_BUDGET_SHARE: '0' })).toEqual([
      expect.stringMatching(/^PROGRESS_BUDGET_SHARE must be between 0.05 and 1/),
    ]);
    expect(problems({ PROGRESS_BUDGET_SHARE: 'lots' })).toEqual([
      expect.stringMatching(/^PROGRESS_BUDGET_SHARE must be a number/),
    ]);
    expect(problems({ PROGRESS_PASS: 'yes' })).toEqual([expect.stringMatching(/^PROGRESS_PASS must be on/)]);
    expect(problems({ PROGRESS_STALLED_DAYS: '0' })).toEqual([
      expect.stringMatching(/^PROGRESS_STALLED_DAYS must be between 1 and 365/),
    ]);
    expect(problems({ PROGRESS_NOT_STARTED_DAYS: '2.5' })).toEqual([
      expect.stringMatching(/^PROGRESS_NOT_STARTED_DAYS must be a whole number/),
    ]);
  });

  it('PROGRESS_RETURN_*: the automatic return of finished seats off by default, 7 days, 25 a pass; bad values named', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { progress: { autoReturn: { on: false, afterDays: 7, max: 25 } } },
    });
    expect(
      parseConfig({ PROGRESS_RETURN_COMPLETED: 'on', PROGRESS_RETURN_AFTER_DAYS: '0', PROGRESS_RETURN_MAX: '1000' }),
    ).toMatchObject({ ok: true, config: { progress: { autoReturn: { on: true, afterDays: 0, max: 1000 } } } });
    expect(problems({ PROGRESS_RETURN_COMPLETED: 'yes' })).toEqual([
      expect.stringMatching(/^PROGRESS_RETURN_COMPLETED must be off .* or on/),
    ]);
    expect(problems({ PROGRESS_RETURN_AFTER_DAYS: '366' })).toEqual([
      expect.stringMatching(/^PROGRESS_RETURN_AFTER_DAYS must be between 0 and 365/),
    ]);
    expect(problems({ PROGRESS_RETURN_AFTER_DAYS: 'a week' })).toEqual([
      expect.stringMatching(/^PROGRESS_RETURN_AFTER_DAYS must be a whole number/),
    ]);
    expect(problems({ PROGRESS_RETURN_MAX: '0' })).toEqual([
      expect.stringMatching(/^PROGRESS_RETURN_MAX must be between 1 and 1000/),
    ]);
  });

  it('LEAVER_GRACE_DAYS: 7 days by default, 0 to 90, off turns leavers off; anything else is refused with the fix', () => {
    expect(parseConfig({ LEAVER_GRACE_DAYS: '0' })).toMatchObject({
      ok: true,
      config: { leavers: { on: true, graceDays: 0 } },
    });
    expect(parseConfig({ LEAVER_GRACE_DAYS: 'off' })).toMatchObject({ ok: true, config: { leavers: { on: false } } });
    expect(parseConfig({ LEAVER_GRACE_DAYS: ' 30 ' })).toMatchObject({
      ok: true,
      config: { leavers: { graceDays: 30 } },
    });
    for (const bad of ['91', 'a week', '-1', '7.5'])
      expect(problems({ LEAVER_GRACE_DAYS: bad })).toEqual([
        expect.stringMatching(/^LEAVER_GRACE_DAYS must be off .* or a whole number of days from 0 to 90/),
      ]);
  });

  it('SHUTDOWN_DRAIN_SECONDS: 0 to 300 whole seconds, with the fix named', () => {
    expect(parseConfig({ SHUTDOWN_DRAIN_SECONDS: '0' })).toMatchObject({ ok: true, config: { drainMs: 0 } });
    expect(problems({ SHUTDOWN_DRAIN_SECONDS: '301' })).toEqual([
      expect.stringMatching(/^SHUTDOWN_DRAIN_SECONDS must be between 0 and 300 \(how long a stop waits/),
    ]);
    expect(problems({ SHUTDOWN_DRAIN_SECONDS: '2.5' })).toEqual([
      expect.stringMatching(/^SHUTDOWN_DRAIN_SECONDS must be a whole number/),
    ]);
  });

  it('accepts PORT 0 and rejects out-of-range ports', () => {
    expect(parseConfig({ PORT: '0' }).ok).toBe(true);
    expect(problems({ PORT: '70000' })).toEqual([expect.stringMatching(/^PORT must be between 0 and 65535/)]);
  });

  it('knows which values are secrets', () => {
    const r = parseConfig({ ...full, SLACK_APP_TOKEN: APP, REDIS_URL: 'redis://:p%40ss@h:6379', DATABASE_URL: PG });
    if (!r.ok) throw new Error(r.problems.join());
    // A password as written and as decoded: the log's redactor removes either form.
    expect(secretsOf(r.config).sort()).toEqual([APP, BOT, LIC, SIGNING, 'p@ss', 'p%40ss', 'db-s3cret'].sort());
  });

  it('a database password in the query string (?password=) or written with an unencoded @ is a secret too', () => {
    for (const [url, secret] of [
      ['postgres://desk@db.internal:5432/ld?sslmode=require&password=q-s3cret', 'q-s3cret'],
      ['postgres://desk:at@s3cret@db.internal:5432/ld', 'at@s3cret'],
    ] as const) {
      const r = parseConfig({ ...full, DATABASE_URL: url });
      if (!r.ok) throw new Error(r.problems.join());
      expect(secretsOf(r.config)).toContain(secret);
    }
  });

  it('TWO_PERSON_MIN_ROWS and TWO_PERSON_EXPIRY_HOURS: whole numbers in range, else a sentence saying what they take', () => {
    expect(problems({ TWO_PERSON_MIN_ROWS: '-1', TWO_PERSON_EXPIRY_HOURS: '0' })).toEqual([
      expect.stringMatching(/^TWO_PERSON_MIN_ROWS must be .*0 turns the rule off/),
      expect.stringMatching(/^TWO_PERSON_EXPIRY_HOURS must be /),
    ]);
  });

  it('LEARNER_REMIND_DAYS: off turns the reminders off; anything but off or 1 to 90 is refused, saying what it takes', () => {
    expect(parseConfig({ LEARNER_REMIND_DAYS: 'off' })).toMatchObject({
      ok: true,
      config: { learners: { remindDays: undefined } },
    });
    expect(parseConfig({ LEARNER_REMIND_DAYS: '90' })).toMatchObject({
      ok: true,
      config: { learners: { remindDays: 90 } },
    });
    for (const bad of ['0', '91', 'never', '7.5'])
      expect(problems({ LEARNER_REMIND_DAYS: bad })).toEqual([
        expect.stringMatching(/^LEARNER_REMIND_DAYS must be off or a whole number of days from 1 to 90/),
      ]);
  });

  it('REQUEST_BUSINESS_DAYS needs REQUEST_TIMEZONE and names days; REQUEST_ESCALATE_HOURS is off unless set', () => {
    const problems = (env: Record<string, string>) => {
      const r = parseConfig(env);
      return r.ok ? [] : r.problems;
    };
    expect(problems({ REQUEST_BUSINESS_DAYS: 'mon-fri' })).toContainEqual(
      expect.stringContaining('REQUEST_BUSINESS_DAYS needs REQUEST_TIMEZONE'),
    );
    expect(problems({ REQUEST_BUSINESS_DAYS: 'weekdays', REQUEST_TIMEZONE: 'UTC' })).toContainEqual(
      expect.stringContaining('e.g. mon-fri or sun-thu'),
    );
    expect(problems({ REQUEST_ESCALATE_HOURS: '0' })).toContainEqual(expect.stringContaining('REQUEST_ESCALATE_HOURS'));
    const r = parseConfig({});
    expect(r.ok && r.config.requests.approvals.escalateHours).toBe(undefined);
  });

  it('REDIS_URL without DATABASE_URL: refused, saying why (SQLite belongs to one process) and what to set', () => {
    const found = problems({ ...full, REDIS_URL: 'redis://:pw@10.0.0.7:6379' });
    expect(found).toEqual([
      expect.stringMatching(
        /^REDIS_URL is set but DATABASE_URL is not: several replicas need one database .* SQLite file in DATA_DIR belongs to one process\. Set DATABASE_URL to a PostgreSQL database .* or unset REDIS_URL to run one process$/,
      ),
    ]);
    expect(found.join()).not.toContain('pw');
    // One process on PostgreSQL needs no Redis; several need both.
    expect(parseConfig({ ...full, DATABASE_URL: PG })).toMatchObject({ ok: true, config: { databaseUrl: PG } });
    expect(parseConfig({ ...full, REDIS_URL: 'redis://10.0.0.7:6379', DATABASE_URL: PG })).toMatchObject({ ok: true });
  });
});
