/**
 * What every course request use case shares (service.ts composes them): the base of kernel-base.ts
 * (transactions with their outbox kick, the messages a change queues, the audit entry) and the two
 * halves of a request's license write (assign-steps.ts): `beginAssign` and `finishAssign`.
 */
import type { CourseRequest } from '../domain/requests.js';
import { createAssignSteps } from './assign-steps.js';
import { closedSkipped, kernelBase } from './kernel-base.js';
import type { RequestServiceOptions } from './types.js';

export {
  backToPending,
  changedNotice,
  DESK,
  factsOf,
  OutcomeNotRecordedError,
  requestChangedKey,
} from './kernel-base.js';

export type RequestKernel = ReturnType<typeof createKernel>;

export function createKernel(opts: RequestServiceOptions) {
  const base = kernelBase(opts);
  const closed = (x: CourseRequest, why: string) => closedSkipped(x, why, base.stamp());
  return { ...base, closedSkipped: closed, ...createAssignSteps(base) };
}
