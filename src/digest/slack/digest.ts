/**
 * The weekly digest in its channel (docs/digest.md): the weekly tick that computes it and hands it to
 * the outbox under its week's key (services/digest-schedule.ts), the renderer that posts it (charts
 * first; on invalid_blocks once more without them), and "Show holders", which answers an admin or
 * viewer privately with the names behind the counts. The post itself carries counts only.
 */
import type { types, webApi } from '@slack/bolt';
import { buildErrorMessage, withSandboxMarker, withSandboxMarkerCharts } from '../../kernel/blocks/common.js';
import type { ChartMessage, DataVisualizationBlock } from '../../kernel/blocks/kit.js';
import { createDbLease } from '../../kernel/services/jobs/lease.js';
import { createJobRunner, type Job } from '../../kernel/services/jobs/runner.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { onClick } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import type { Surface } from '../../kernel/slack/state.js';
import { createProgressStore } from '../../progress/index.js';
import { buildDigestHoldersMessage, buildDigestMessage, withoutCharts } from '../blocks/digest.js';
import type { Digest } from '../domain/digest.js';
import { computeDigest } from '../services/digest.js';
import {
  CATCH_UP_DAYS,
  DIGEST_NOTICE_KIND,
  type DigestNotice,
  type DigestSchedule,
  digestClaims,
  digestForPost,
  dueWeek,
} from '../services/digest-schedule.js';

/** Slack's chart block as @slack/types (3.2) does not type it yet: a Block of our own. */
interface SlackChartBlock extends types.Block {
  type: 'data_visualization';
  title: string;
  chart: DataVisualizationBlock['chart'];
}

type SlackBlocks = (types.KnownBlock | SlackChartBlock)[];

const isInvalidBlocks = (error: unknown) =>
  (error as { data?: { error?: unknown } } | undefined)?.data?.error === 'invalid_blocks';

/**
 * Posts a message that may carry charts; when Slack answers invalid_blocks (no chart block in this
 * workspace yet), posts it once more without them (its words say the same). Other failures are thrown.
 */
export async function postWithCharts(
  client: webApi.WebClient,
  channel: string,
  message: ChartMessage,
  deps: Pick<AppDeps, 'logger' | 'sandbox'>,
): Promise<'charts' | 'text'> {
  const marked = withSandboxMarkerCharts(message, deps.sandbox);
  try {
    await client.chat.postMessage({
      channel,
      text: marked.text,
      blocks: marked.blocks as SlackBlocks,
      unfurl_links: false,
    });
    return 'charts';
  } catch (error) {
    if (!isInvalidBlocks(error)) throw error;
    deps.logger.warn('digest: Slack refused the chart blocks; posting the digest without them', { channel });
    const plain = withoutCharts(marked);
    await client.chat.postMessage({ channel, text: plain.text, blocks: plain.blocks, unfurl_links: false });
    return 'text';
  }
}

const RETRY_MS = 15 * 60_000;

export type DigestTick = 'off' | 'not-due' | 'claimed' | 'late' | 'enqueued' | 'failed' | 'waiting';

/**
 * How long after its due time the post waits for a complete progress pass (the first after a fresh
 * start, or the day's, running or due): then it goes out with the records as they are.
 */
export const PASS_WAIT_MINUTES = 6 * 60;

export interface DigestFeature {
  /** Is a week due, not yet claimed? Then compute, claim and enqueue it (the outbox posts it). */
  tick(): Promise<DigestTick>;
  /**
   * This week's digest now, whatever the schedule's moment (the local console's control): the week
   * last due is claimed and its post enqueued, as a tick would; 'claimed' when that week's post was
   * already claimed (by the schedule or an earlier call), 'off' without a channel or records.
   */
  postNow(): Promise<'enqueued' | 'claimed' | 'off'>;
  /** The outbox's renderer for a digest notice: false when `body` is no digest notice. */
  deliver(client: webApi.WebClient, body: unknown): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

export interface DigestOptions {
  schedule: DigestSchedule & { channel?: string | undefined };
  outbox: Pick<Outbox, 'enqueue'> & { kick?(): void };
  /** Default 60 s. */
  tickMs?: number;
}

/** The renderer of a digest notice: posts it (charts first); false when `body` is no digest notice. */
async function deliverDigest(deps: AppDeps, client: webApi.WebClient, body: unknown): Promise<boolean> {
  const notice = body as Partial<DigestNotice> | null;
  if (notice?.kind !== DIGEST_NOTICE_KIND || !notice.digest || !notice.channel) return false;
  const message = buildDigestMessage(notice.digest, { names: false, showHolders: true, scheduled: true });
  const how = await postWithCharts(client, notice.channel, message, deps);
  deps.logger.info('digest posted', { week: notice.week, channel: notice.channel, charts: how === 'charts' });
  return true;
}

function logSetting(deps: AppDeps, schedule: DigestOptions['schedule']): void {
  if (schedule.channel && deps.records) {
    deps.logger.info('digest on', {
      channel: schedule.channel,
      day: schedule.day,
      time: schedule.time,
      timeZone: schedule.timeZone,
    });
  } else if (!schedule.channel) {
    deps.logger.info('digest post off: set DIGEST_CHANNEL (or ALERT_CHANNEL) to a channel id to get the weekly digest');
  }
}

/** The digest from the licensing API and the progress records, with the configured thresholds. */
export function readDigest(
  deps: AppDeps,
  records: NonNullable<AppDeps['records']>,
  now: Date,
  priority: 'background' | 'interactive',
  names: 'listed' | 'counts' = 'listed',
): Promise<Digest> {
  return computeDigest(
    { licensing: deps.licensing, store: createProgressStore(records) },
    now,
    deps.progress?.thresholds,
    priority,
    names,
  );
}

/** Computes the digest, then claims `week` and enqueues its post in one transaction. */
async function claimWeek(
  deps: AppDeps,
  opts: DigestOptions,
  week: string,
  now: Date,
  priority: 'background' | 'interactive',
): Promise<'enqueued' | 'claimed' | 'off'> {
  const { records } = deps;
  const channel = opts.schedule.channel;
  if (!records || !channel) return 'off';
  // The post carries counts only: no holder's name is read for it.
  const d = await readDigest(deps, records, now, priority, 'counts');
  const notice: DigestNotice = { kind: DIGEST_NOTICE_KIND, channel, week, digest: digestForPost(d) };
  if (!(await digestClaims(records, opts.outbox).claimAndEnqueue(week, notice, now))) return 'claimed';
  deps.logger.info('digest: the week is claimed and its post queued', { week, channel });
  opts.outbox.kick?.();
  return 'enqueued';
}

export function createDigestFeature(deps: AppDeps, opts: DigestOptions): DigestFeature {
  const records = deps.records;
  const channel = opts.schedule.channel;
  const claims = records ? digestClaims(records, opts.outbox) : undefined;
  let job: Job | undefined;
  let running: Promise<DigestTick> | undefined;
  // After a failure (the licensing service or the database away), the next try waits this long.
  let retryAt = 0;
  // The week whose post waits for the progress pass (logged once).
  let waitingFor: string | undefined;
  const log = deps.logger;

  /** Counted from fresh records: while the progress pass runs, is due or never completed (a fresh start),
   *  the post waits for it, at most PASS_WAIT_MINUTES after it fell due. */
  async function passAllows(week: string, lateMinutes: number): Promise<boolean> {
    const pass = deps.progressPass;
    if (!pass || (await pass.ready())) return true;
    if (lateMinutes < PASS_WAIT_MINUTES) {
      if (waitingFor !== week) {
        waitingFor = week;
        log.info('digest: waiting for a complete progress pass before counting', { week });
      }
      return false;
    }
    log.warn('digest: no complete progress pass yet; counting the records as they are', { week, lateMinutes });
    return true;
  }

  async function runTick(): Promise<DigestTick> {
    if (!claims || !records || !channel) return 'off';
    const now = deps.now();
    const { week, lateMinutes } = dueWeek(now, opts.schedule);
    if ((await claims.lastWeek()) === week) return 'claimed';
    if (lateMinutes > CATCH_UP_DAYS * 24 * 60) return 'late';
    if (now.getTime() < retryAt) return 'failed';
    if (!(await passAllows(week, lateMinutes))) return 'waiting';
    return claimWeek(deps, opts, week, now, 'background');
  }

  const feature: DigestFeature = {
    async tick() {
      if (running) return running;
      running = runTick().catch((error: unknown) => {
        retryAt = deps.now().getTime() + RETRY_MS;
        log.warn('digest: the weekly digest could not be prepared; trying again in 15 minutes', {
          error: String(error),
        });
        return 'failed' as const;
      });
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
    async postNow() {
      if (!claims || !records || !channel) return 'off';
      const now = deps.now();
      const { week } = dueWeek(now, opts.schedule);
      if ((await claims.lastWeek()) === week) return 'claimed';
      return claimWeek(deps, opts, week, now, 'interactive');
    },
    deliver: (client, body) => deliverDigest(deps, client, body),
    start() {
      if (job || !channel || !records) return;
      // One replica prepares the week's post (the lease); the week's claim, in the transaction that
      // enqueues the post, is its memory: a week is posted once, whoever prepared it.
      job = (deps.jobs ?? createJobRunner({ logger: log })).add({
        name: 'digest: weekly post',
        everyMs: opts.tickMs ?? 60_000,
        firstAfterMs: 0,
        oneReplica: { lease: createDbLease(records, { now: deps.now }) },
        run: () => feature.tick(),
      });
    },
    async stop() {
      await job?.stop();
      job = undefined;
      await running;
    },
  };
  logSetting(deps, opts.schedule);
  return feature;
}

/** "Show holders" on a digest post: the names behind its counts, to the one who clicked only. */
export function createShowHoldersHandler(s: Surface) {
  const { deps } = s;
  return onClick(s, { need: 'viewer' }, async ({ respond }): Promise<void> => {
    const tell = async (message: Parameters<typeof withSandboxMarker>[0]) => {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...withSandboxMarker(message, deps.sandbox),
      }).catch((error: unknown) => deps.logger.warn('respond failed', { error: String(error) }));
    };
    if (!deps.records) return tell(buildErrorMessage('The digest needs the records, which this process has not.'));
    try {
      const d = await readDigest(deps, deps.records, deps.now(), 'interactive');
      await tell(buildDigestHoldersMessage(d));
    } catch (error) {
      deps.logger.warn('digest: could not read the holders', { error: String(error) });
      await tell(buildErrorMessage(presentError(error, 'other')));
    }
  });
}
