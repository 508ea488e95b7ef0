/**
 * The weekly digest as data (docs/digest.md): what services/digest.ts computes and blocks/digest.ts
 * words. No words here. Names and e-mails sit apart (`names`), so a channel post can drop them whole.
 */

import type { ProgressStanding } from '../../progress/index.js';
import type { Forecast, UsagePoint } from './forecast.js';

/** Active holders by progress: 0 %, 1–49 %, 50–99 %, completed. */
export interface ProgressSpread {
  zero: number;
  low: number;
  high: number;
  completed: number;
}

export const SPREAD_BUCKETS = ['zero', 'low', 'high', 'completed'] as const satisfies readonly (keyof ProgressSpread)[];

export const emptySpread = (): ProgressSpread => ({ zero: 0, low: 0, high: 0, completed: 0 });

export function spreadBucket(p: { progress: number; completed: string | null }): keyof ProgressSpread {
  if (p.completed !== null || p.progress >= 100) return 'completed';
  if (p.progress <= 0) return 'zero';
  return p.progress < 50 ? 'low' : 'high';
}

export interface PoolDigest {
  poolId: string;
  courseId: string;
  licenses: number;
  used: number;
  free: number;
  transferable: boolean;
  end: string;
  /** Calendar days until the pool ends (`calendarDaysUntil`: 0 on its last day); null when its end cannot be read. */
  endsInDays: number | null;
  forecast: Forecast;
  /** Seats in use over the last 30 days and, when filling, foreseen: the chart's two lines. */
  lines: { used: UsagePoint[]; forecast: UsagePoint[] };
  /** This pool's active holders by progress (from the progress store). */
  spread: ProgressSpread;
}

export interface CourseDigest {
  courseId: string;
  title: string;
  pools: PoolDigest[];
  licenses: number;
  used: number;
  free: number;
  spread: ProgressSpread;
  completedThisWeek: number;
  stalled: number;
  notStarted: number;
  /** Completed holders in transferable pools: seats that could be given back and given again. */
  completedTransferable: number;
}

/** One holder named in the "Show holders" answer (never in a channel post). */
export interface DigestHolder {
  licenseId: string;
  poolId: string;
  courseTitle: string;
  name: string;
  email: string;
  progress: number;
  standing: ProgressStanding;
}

/** One list of holders: how many there are in all, and the first of them in the order they are shown. */
export interface DigestList {
  total: number;
  /** At most DIGEST_LISTED, by course title, then name, then license id. */
  listed: DigestHolder[];
}

/** Holders named per list at most (the most any answer shows: "Show holders"). */
export const DIGEST_LISTED = 25;

export interface DigestNames {
  stalled: DigestList;
  notStarted: DigestList;
  completedTransferable: DigestList;
  /** Holders of pools ending within the window, not completed. */
  endingSoon: DigestList;
}

export interface Digest {
  /** When it was computed (ISO). */
  at: string;
  /** The week the completions are counted over: [from, to). */
  weekFrom: string;
  weekTo: string;
  thresholds: { notStartedDays: number; stalledDays: number };
  /** Pools ending within this many days are listed as ending soon. */
  endingWithinDays: number;
  courses: CourseDigest[];
  totals: {
    pools: number;
    licenses: number;
    used: number;
    free: number;
    holders: number;
    completedThisWeek: number;
    stalled: number;
    notStarted: number;
    completedTransferable: number;
  };
  /** Running pools that end within `endingWithinDays`, soonest first. */
  endingSoon: PoolDigest[];
  /** The pool the seats chart shows: the one that fills soonest, else the one with most seats in use. */
  chartPoolId?: string;
  /** Absent on the digest a channel post is built from. */
  names?: DigestNames;
}

/** The digest without anyone's name or e-mail: what a channel post (and the outbox row) may hold. */
export function withoutNames(d: Digest): Digest {
  const { names: _names, ...rest } = d;
  return rest;
}
