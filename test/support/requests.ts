/** Course-request fixtures shared by the request tests: a request record, and self-service in a directory. */
import type { CourseRequest } from '../../src/domain/requests.js';
import { requestTimers } from '../../src/domain/requests.js';
import { createFileRequestStore } from '../../src/services/requests/store.js';
import type { TestAppOptions } from './app-harness.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

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

/** Requests and the waitlist kept in `dir` (as DATA_DIR keeps them), cards to `channel`, default timers. */
export function selfServiceIn(dir: string, channel: string): Pick<TestAppOptions, 'requests' | 'waitlist'> {
  return {
    requests: { store: createFileRequestStore(dir, quiet), channel, timers: requestTimers(24, 7) },
    waitlist: { dataDir: dir },
  };
}
