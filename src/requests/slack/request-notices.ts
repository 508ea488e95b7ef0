/**
 * Sends what the outbox holds for course requests and the waitlist: each notice (domain/requests.ts
 * `RequestNotice`) is worded here, at send time, from the request as it is now, with the builders of
 * src/blocks/. The card copies and the requester's DM (notify.ts), the waitlist's DMs
 * (waitlist/notices.ts), the approver's DM after a settled approval. A notice about a request that no
 * longer exists is dropped.
 */

import type { webApi } from '@slack/bolt';
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { sendDm } from '../../kernel/slack/notices.js';
import { buildApprovalSettledMessage } from '../blocks/requests.js';
import type { DbRequestStore } from '../db/request-store.js';
import { type CourseRequest, type RequestNotice, UnreadableRequestError } from '../domain/requests.js';
import { entryOfRequest } from '../domain/waitlist.js';
import type { RequestNotices } from '../services/service.js';
import type { WaitlistNotices } from '../services/waitlist.js';

export function createRequestNoticeRenderers(opts: {
  store: Pick<DbRequestStore, 'get'>;
  events: RequestNotices;
  notifier: WaitlistNotices;
  client: webApi.WebClient;
  deps: AppDeps;
}): (notice: RequestNotice, steps?: NoticeSteps) => Promise<void> {
  const { store, events, notifier } = opts;
  return async (notice, steps) => {
    let r: CourseRequest | undefined;
    try {
      r = await store.get(notice.requestId);
    } catch (error) {
      // Its record cannot be read (the store logged its id): nothing can be worded from it, ever, so
      // it is dropped rather than tried again.
      if (!(error instanceof UnreadableRequestError)) throw error;
      opts.deps.logger.warn('a message about a course request whose record cannot be read was dropped', {
        kind: notice.kind,
        requestId: notice.requestId,
      });
      return;
    }
    if (!r) {
      opts.deps.logger.info('a message about a course request that no longer exists was dropped', {
        kind: notice.kind,
      });
      return;
    }
    switch (notice.kind) {
      case 'request-changed':
        await events.changed(
          r,
          {
            status: notice.status,
            ...(notice.place !== undefined ? { place: notice.place } : {}),
            ...(notice.toldElsewhere ? { toldElsewhere: true } : {}),
          },
          steps,
        );
        return;
      case 'waitlist-assigned':
        await notifier.assigned(
          entryOfRequest(r),
          {
            kind: 'assigned',
            licenseId: notice.licenseId,
            ...(notice.endDate ? { endDate: notice.endDate } : {}),
          },
          steps,
        );
        return;
      case 'waitlist-skipped': {
        // Who is next is a courtesy: one whose record cannot be read is left unnamed.
        const next = notice.next ? await store.get(notice.next).catch(() => undefined) : undefined;
        const entry = entryOfRequest(r);
        if (notice.approver) entry.approver = notice.approver;
        else delete entry.approver;
        await notifier.skipped(entry, notice.reason, next ? entryOfRequest(next) : undefined, notice.poolEnded, steps);
        return;
      }
      case 'request-received':
        // Sent already (the process stopped before the outbox marked it): nobody is told twice. The
        // requester's DM goes last; a card saved on the request is not posted again (notify.ts).
        if (r.requesterDm) return;
        await events.received(r, { freeSeats: notice.freeSeats }, steps);
        return;
      case 'request-reminder':
        // Decided since the check queued it: a reminder would ask for what is done.
        if (r.status !== notice.status) return;
        await events.reminder(r, steps);
        return;
      case 'request-escalated':
        // Decided since the check queued it: nobody is asked about what is done.
        if (r.status !== 'pending') return;
        await events.escalated(r, steps);
        return;
      case 'approval-settled': {
        await sendDm(
          opts.deps,
          opts.client,
          notice.approver,
          buildApprovalSettledMessage(r, notice.assigned, notice.why, notice.seat),
        );
        return;
      }
    }
  };
}
