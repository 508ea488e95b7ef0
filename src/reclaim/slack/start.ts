/**
 * Reclaim rounds composed (docs/reclaim.md): the use case on the records, the renderers of its outbox
 * notices and its job of the runner (every few minutes, and at start). Built by the composition root, like the
 * course requests; its Slack client arrives once the app exists.
 */

import type { webApi } from '@slack/bolt';
import type { ChangeContext } from '../../changes/index.js';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { startedJob } from '../../kernel/services/jobs/runner.js';
import { createIntents } from '../../kernel/services/writes/intents.js';
import { createWriteLedger } from '../../kernel/services/writes/ledger.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { deliverIf, type NoticeFeatureOptions, noticeOf, openDm } from '../../kernel/slack/notices.js';
import { createProgressStore } from '../../progress/index.js';
import {
  buildReclaimAskMessage,
  buildReclaimReleasedMessage,
  buildReclaimReminderMessage,
  buildReclaimRoundMessage,
} from '../blocks/reclaim.js';
import { RECLAIM_NOTICE_KINDS, type ReclaimNotice, type ReclaimSettings } from '../domain/reclaim.js';
import { createReclaim, type Reclaim } from '../services/reclaim.js';

export const RECLAIM_EVERY_MS = 5 * 60_000;

export interface ReclaimFeature {
  service: Reclaim;
  /** Sends one outbox notice of a reclaim kind; false for any other kind. */
  deliver(body: unknown): Promise<boolean>;
  /** The job's work once (tests call it after moving the clock). */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export const isReclaimNotice = noticeOf<ReclaimNotice>(RECLAIM_NOTICE_KINDS);

/** The renderers of reclaim's outbox notices: DMs to holders and the admin's round message. */
function reclaimDelivery(service: Reclaim, client: webApi.WebClient, deps: AppDeps) {
  async function send(user: string, message: SlackMessage) {
    const channel = await openDm(client, user);
    const body = withSandboxMarker(message, deps.sandbox);
    return client.chat.postMessage({ channel, text: body.text, blocks: body.blocks });
  }

  /** The round's one message: updated where it is, else posted to the admin (the first post wins). */
  async function postRound(roundId: string): Promise<void> {
    const round = await service.roundView(roundId);
    if (!round) return;
    const message = withSandboxMarker(buildReclaimRoundMessage(round.view), deps.sandbox);
    if (round.channel && round.ts) {
      await client.chat.update({ channel: round.channel, ts: round.ts, text: message.text, blocks: message.blocks });
      return;
    }
    const channel = await openDm(client, round.view.admin);
    const posted = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
    if (!posted.channel || !posted.ts) return;
    if (await service.setMessage(roundId, posted.channel, posted.ts)) return;
    // Another replica posted the round's message first: one message only, the first one.
    await client.chat.delete({ channel: posted.channel, ts: posted.ts }).catch(() => undefined);
    const first = await service.roundView(roundId);
    if (first?.channel && first.ts)
      await client.chat.update({ channel: first.channel, ts: first.ts, text: message.text, blocks: message.blocks });
  }

  return async (notice: ReclaimNotice): Promise<void> => {
    switch (notice.kind) {
      case 'reclaim-ask':
        await send(notice.user, buildReclaimAskMessage(notice.ask));
        return;
      case 'reclaim-reminder':
        await send(notice.user, buildReclaimReminderMessage(notice.asks));
        return;
      case 'reclaim-released':
        await send(notice.user, buildReclaimReleasedMessage(notice.ask, notice.by));
        return;
      case 'reclaim-round':
        await postRound(notice.roundId);
        return;
    }
  };
}

export function composeReclaim(deps: AppDeps, opts: NoticeFeatureOptions<ReclaimSettings>): ReclaimFeature {
  const logger = deps.logger;
  // A release is a licensing write: recorded as an intent before it is sent, like an admin's revoke.
  const writes = deps.writes ?? createWriteLedger(opts.records, createIntents(opts.records, deps.now));
  const changeOf = (audit: AuditLog): ChangeContext => ({
    licensing: deps.licensing,
    audit,
    now: deps.now,
    work: deps.work,
    seats: deps.waitlist,
    writes,
  });
  const service = createReclaim({
    records: opts.records,
    progress: createProgressStore(opts.records),
    licensing: deps.licensing,
    outbox: opts.outbox,
    change: () => changeOf(opts.audit),
    audit: () => opts.audit,
    waiting: async (poolId) => (deps.waitlist ? (await deps.waitlist.entries(poolId)).length : 0),
    now: deps.now,
    settings: opts.settings,
    logger,
  });

  const deliver = reclaimDelivery(service, opts.client, deps);

  let running: Promise<void> | undefined;
  function tick(): Promise<void> {
    running ??= service
      .tick()
      .then((r) => {
        if (r.reminded + r.closed > 0) logger.info('reclaim rounds: reminders and deadlines', { ...r });
      })
      .catch((error: unknown) =>
        logger.warn('reclaim rounds: the check failed; trying again later', { error: String(error) }),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  }
  const job = startedJob(deps.jobs, logger, {
    name: 'reclaim: reminders and deadlines',
    everyMs: opts.everyMs ?? RECLAIM_EVERY_MS,
    firstAfterMs: 0,
    run: tick,
  });

  return {
    service,
    deliver: deliverIf(isReclaimNotice, deliver),
    tick,
    start: () => job.start(),
    async stop() {
      await job.stop();
      await running;
    },
  };
}
