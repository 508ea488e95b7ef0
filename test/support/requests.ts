/** Course-request fixtures shared by the request tests: a request record, and self-service in a directory. */
import { RequestCallbackId, RequestInputId } from '../../src/blocks/ids.js';
import type { CourseRequest } from '../../src/domain/requests.js';
import { requestTimers } from '../../src/domain/requests.js';
import type { TestAppOptions } from './app-harness.js';

/** A pending request of a member with no role for pool 2002 (Mastering DAX). */
export function sampleRequest(id: string): CourseRequest {
  return {
    id,
    requester: 'U0NOROLE01',
    requesterEmail: 'nora.quinn@acme-learning.example',
    poolId: '2002',
    courseTitle: 'Mastering DAX',
    createdAt: '2026-11-23T08:00:00.000Z',
    status: 'pending',
    source: 'command',
    cards: [],
  };
}

/** Requests and the waitlist (in the app's own records unless `records` is given), cards to `channel`, default timers. */
export function selfServiceTo(channel: string): Pick<TestAppOptions, 'requests' | 'waitlist'> {
  return { requests: { channel, timers: requestTimers(24, 7) }, waitlist: {} };
}

/**
 * The request form's view as Slack sends it on submission: the pool picked, and the optional reason
 * and "needed by" day (`null` when left empty, as Slack sends an empty input).
 */
export function requestFormView(
  viewId: string,
  poolId: string,
  extra: { reason?: string | undefined; neededBy?: string | undefined } = {},
) {
  return {
    id: viewId,
    callback_id: RequestCallbackId.form,
    private_metadata: JSON.stringify({ s: 'command' }),
    state: {
      values: {
        [RequestInputId.pool.block]: {
          [RequestInputId.pool.action]: { type: 'static_select', selected_option: { value: poolId } },
        },
        [RequestInputId.reason.block]: {
          [RequestInputId.reason.action]: { type: 'plain_text_input', value: extra.reason ?? null },
        },
        [RequestInputId.neededBy.block]: {
          [RequestInputId.neededBy.action]: { type: 'datepicker', selected_date: extra.neededBy ?? null },
        },
      },
    },
  };
}
