/**
 * The automatic return of finished seats (docs/progress.md, "Finished courses give seats back"): its
 * settings, and the messages it leaves in the outbox (rendered by slack/auto-return.ts).
 */

/** PROGRESS_RETURN_COMPLETED, PROGRESS_RETURN_AFTER_DAYS, PROGRESS_RETURN_MAX. */
export interface AutoReturnSettings {
  /** Off by default: admins return finished seats with App Home's button. */
  on: boolean;
  /** Days after a completion was first seen before its seat is returned (0 to 365; default 7). */
  afterDays: number;
  /** Seats returned at most after one pass (1 to 1000; default 25). */
  max: number;
}

export const AUTO_RETURN_DEFAULTS: AutoReturnSettings = { on: false, afterDays: 7, max: 25 };

export const AUTO_RETURN_NOTICE_KINDS = ['progress-returned', 'progress-returns'] as const;

/** Seats returned in one pool. */
export interface ReturnedInPool {
  poolId: string;
  /** The pool's course, as the revoke read it (absent when it could not be read). */
  courseTitle?: string;
  count: number;
}

export type AutoReturnNotice =
  /** To the holder (found by e-mail when it is sent; nobody to tell when not in Slack). */
  | {
      kind: 'progress-returned';
      email: string;
      licenseId: string;
      poolId: string;
      courseTitle?: string;
      /** YYYY-MM-DD. */
      completedOn: string;
      /**
       * True when `completedOn` is the day License Desk first saw 100 % (the service sent no completion
       * date): the holder reads "we saw it completed on", never "you completed it on".
       */
      completionSeen?: boolean;
    }
  /** To the alert channel, once a pass: counts only, no student. */
  | { kind: 'progress-returns'; channel: string; pools: ReturnedInPool[]; failed: number };
