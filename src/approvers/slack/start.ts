/**
 * The approvers composed (docs/roles-and-approvals.md): the delivery of their notices (the owners'
 * card of a delegation waiting for a yes, the DMs that tell of a delegation, the daily list) and the
 * daily list's job on the one runner, under its lease (one replica a run; the day's row makes it once
 * a day). Built by the composition root once the app's Slack client exists.
 */
import type { webApi } from '@slack/bolt';
import { createDbLease } from '../../kernel/db/job-leases.js';
import type { Records } from '../../kernel/db/open.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { startedJob } from '../../kernel/services/jobs/runner.js';
import type { NoticeSteps, Outbox, OutboxSender } from '../../kernel/services/outbox.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { noticeOf, noticeParts, sendDm } from '../../kernel/slack/notices.js';
import { buildDailyListMessage, buildDelegationAskMessage, buildDelegationToldMessage } from '../blocks/approvers.js';
import { type ApproverStore, createApproverStore } from '../db/store.js';
import { APPROVER_NOTICE_KINDS, type ApproverNotice, type WaitingItem } from '../domain/delegation.js';
import { sendDailyLists } from '../services/daily-list.js';
import { ownersOf, routeFor } from './route.js';

/** How often the daily list's job looks whether today's lists are due. */
export const DAILY_LIST_EVERY_MS = 15 * 60_000;

export interface ApproverSettings {
  /** APPROVER_DAILY_LIST_TIME (HH:MM), default 09:00, in `timeZone` (REQUEST_TIMEZONE, default UTC). */
  dailyListTime: string;
  timeZone: string;
}

export const APPROVER_DEFAULTS: ApproverSettings = { dailyListTime: '09:00', timeZone: 'UTC' };

export interface ApproversOptions {
  client: webApi.WebClient;
  audit: AuditLog;
  records: Records;
  outbox: Outbox & OutboxSender;
  settings: ApproverSettings;
  /** The course requests waiting for a decision, oldest first (the composition root reads the requests). */
  waiting: () => Promise<WaitingItem[]>;
  everyMs?: number;
}

export interface ApproversFeature {
  deliver(body: unknown, steps: NoticeSteps): Promise<boolean>;
  /** The daily list's work once (tests call it after moving the clock). */
  tick(): Promise<{ sent: number }>;
  start(): void;
  stop(): Promise<void>;
}

export const isApproverNotice = noticeOf<ApproverNotice>(APPROVER_NOTICE_KINDS);

async function deliverNotice(
  deps: AppDeps,
  client: webApi.WebClient,
  store: ApproverStore,
  notice: ApproverNotice,
  steps: NoticeSteps,
): Promise<void> {
  const parts = noticeParts(steps);
  const dm = (user: string, message: Parameters<typeof sendDm>[3]) => async () =>
    void (await sendDm(deps, client, user, message));
  if (notice.kind === 'approver-daily-list') {
    await parts.send('dm', dm(notice.user, buildDailyListMessage(notice.items)));
    return parts.settle();
  }
  const d = await store.get(notice.delegationId);
  if (!d) return;
  if (notice.kind === 'delegation-asked') {
    if (d.state !== 'waiting') return;
    for (const owner of await ownersOf(deps, client)) {
      if (owner !== d.approver) await parts.send(`card:${owner}`, dm(owner, buildDelegationAskMessage(d)));
    }
    return parts.settle();
  }
  await parts.send('approver', dm(d.approver, buildDelegationToldMessage({ ...d, state: notice.state }, 'approver')));
  if (notice.state === 'active')
    await parts.send('delegate', dm(d.delegate, buildDelegationToldMessage(d, 'delegate')));
  parts.settle();
}

export function composeApprovers(deps: AppDeps, opts: ApproversOptions): ApproversFeature {
  const { logger } = deps;
  const store = createApproverStore(opts.records);
  const run = () =>
    sendDailyLists({
      store,
      outbox: opts.outbox,
      audit: (entry) => opts.audit.record(entry),
      now: deps.now,
      time: opts.settings.dailyListTime,
      timeZone: opts.settings.timeZone,
      waiting: opts.waiting,
      routeOf: (poolId, requester) => routeFor(deps, opts.client, poolId, requester),
    });
  const job = startedJob(deps.jobs, logger, {
    name: 'approvers: the daily waiting-for-you list',
    everyMs: opts.everyMs ?? DAILY_LIST_EVERY_MS,
    firstAfterMs: 60_000,
    oneReplica: { lease: createDbLease(opts.records, { now: deps.now }) },
    run: () =>
      run()
        .then((r) => {
          if (r.sent > 0) logger.info('approvers’ daily lists queued', { ...r });
        })
        .catch((error: unknown) =>
          logger.warn('approvers’ daily lists: the run failed; trying again later', { error: String(error) }),
        ),
  });
  return {
    async deliver(body, steps) {
      if (!isApproverNotice(body)) return false;
      await deliverNotice(deps, opts.client, store, body, steps);
      return true;
    },
    tick: run,
    start: () => job.start(),
    stop: () => job.stop(),
  };
}
