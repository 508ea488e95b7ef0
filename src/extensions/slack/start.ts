/**
 * Extension requests composed (docs/learners.md, "Ask for more time"): the use cases on the records, the
 * renderers of their outbox notices, the settle of Approve's write left in flight, and the check as
 * a job of the one runner. Built by the composition root next to the course requests, whose approvers,
 * cards channel, timers and daily limit it shares.
 */
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import type { Intent } from '../../kernel/services/writes/intents.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { deliverIf, noticeOf } from '../../kernel/slack/notices.js';
import type { RequestsOptions } from '../../requests/index.js';
import { createExtensionStore } from '../db/store.js';
import { EXTENSION_INTENT, EXTENSION_NOTICE_KINDS, type ExtensionNotice } from '../domain/extensions.js';
import { checkJob } from '../services/check.js';
import { createExtensionService, type ExtensionService } from '../services/extensions.js';
import { createExtensionDelivery } from './notices.js';

/** The course requests' own parts (their approvers' channel, timers), with the daily limit. */
export type ExtensionsOptions = Pick<
  RequestsOptions,
  'client' | 'audit' | 'records' | 'intents' | 'outbox' | 'channel' | 'timers' | 'checkEveryMs'
> & {
  /** REQUEST_MAX_PER_DAY; default 10. */
  maxPerDay?: number | undefined;
};

export interface ExtensionsFeature {
  service: ExtensionService;
  intentKind: string;
  settle(intent: Intent): Promise<void>;
  /** Sends one outbox notice of an extension kind; false for any other kind. */
  deliver(body: unknown, steps: NoticeSteps): Promise<boolean>;
  /** The check once now (tests, after moving the clock). */
  tick(): Promise<unknown>;
  start(): void;
  stop(): Promise<void>;
}

const isExtensionNotice = noticeOf<ExtensionNotice>(EXTENSION_NOTICE_KINDS);

export function composeExtensions(deps: AppDeps, opts: ExtensionsOptions): ExtensionsFeature {
  const store = createExtensionStore({
    db: opts.records.db,
    dialect: opts.records.dialect,
    now: deps.now,
    durably: (fn) => opts.records.durably(fn),
  });
  const service = createExtensionService({
    store,
    intents: opts.intents,
    outbox: opts.outbox,
    licensing: deps.licensing,
    audit: opts.audit,
    now: deps.now,
    logger: deps.logger,
    timers: opts.timers,
    maxPerDay: opts.maxPerDay ?? 10,
    work: deps.work,
    settleLater: (intentId) => deps.settler?.adopt(intentId),
  });
  const deliver = createExtensionDelivery({
    client: opts.client,
    deps,
    store,
    channel: opts.channel,
    expireAfterMs: opts.timers.expireAfterMs,
  });
  const job = checkJob(() => service.check(), service.kernel, opts.checkEveryMs ?? 5 * 60_000, deps.jobs);
  return {
    service,
    intentKind: EXTENSION_INTENT,
    settle: (intent) => service.settle(intent),
    deliver: deliverIf(isExtensionNotice, deliver),
    tick: job.tick,
    start: job.start,
    stop: job.stop,
  };
}
