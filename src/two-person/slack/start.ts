/**
 * The two-person rule composed (docs/roles-and-approvals.md): the use case on the records, the
 * renderers of its outbox notices (the card to each other admin, the submitter told of the end), and
 * its job on the one runner, under its lease: expiring what waited past TWO_PERSON_EXPIRY_HOURS and
 * starting again an approved change whose start a dead process never recorded.
 */
import type { webApi } from '@slack/bolt';
import type { Records } from '../../kernel/db/open.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { createDbLease } from '../../kernel/services/jobs/lease.js';
import type { Job } from '../../kernel/services/jobs/runner.js';
import type { Outbox, OutboxSender } from '../../kernel/services/outbox.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { ComposedParts } from '../../kernel/slack/feature.js';
import { deliverIf, noticeOf, sendDm } from '../../kernel/slack/notices.js';
import { buildMassChangeCard, buildMassChangeToldMessage } from '../blocks/two-person.js';
import { TWO_PERSON_NOTICE_KINDS, type TwoPersonNotice, type TwoPersonSettings } from '../domain/two-person.js';
import { createTwoPerson, type TwoPerson } from '../services/two-person.js';

export const TWO_PERSON_EVERY_MS = 60_000;

export interface TwoPersonFeature extends ComposedParts {
  service: TwoPerson;
  /** The job's work once (tests call it after moving the clock). */
  tick(): Promise<{ expired: number; restarted: number }>;
}

const isTwoPersonNotice = noticeOf<TwoPersonNotice>(TWO_PERSON_NOTICE_KINDS);

export function composeTwoPerson(
  deps: AppDeps,
  opts: {
    client: webApi.WebClient;
    audit: AuditLog;
    records: Records;
    outbox: Outbox & OutboxSender;
    settings: TwoPersonSettings;
    everyMs?: number;
  },
): TwoPersonFeature {
  const logger = deps.logger;
  const service = createTwoPerson({
    records: opts.records,
    outbox: opts.outbox,
    audit: () => opts.audit,
    settings: opts.settings,
    now: deps.now,
    logger,
  });
  const deliver = deliverIf(isTwoPersonNotice, async (notice) => {
    const message =
      notice.kind === 'two-person-card' ? buildMassChangeCard(notice) : buildMassChangeToldMessage(notice);
    await sendDm(deps, opts.client, notice.to, message);
  });
  const tick = async () => {
    const r = await service.tick();
    if (r.expired + r.restarted > 0) logger.info('mass changes: expired and started again', { ...r });
    return r;
  };
  let job: Job | undefined;
  return {
    service,
    deliver,
    tick,
    start() {
      if (!deps.jobs || opts.settings.minRows === 0) return;
      job ??= deps.jobs.add({
        name: 'two-person: expiry',
        everyMs: opts.everyMs ?? TWO_PERSON_EVERY_MS,
        firstAfterMs: 0,
        oneReplica: { lease: createDbLease(opts.records, { now: deps.now }) },
        run: tick,
      });
    },
    async stop() {
      await job?.stop();
      job = undefined;
    },
  };
}
