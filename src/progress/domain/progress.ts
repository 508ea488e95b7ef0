/**
 * Learning progress over time (docs/progress.md). The licensing service tells each license's progress
 * now and keeps no history; License Desk records what each daily pass saw, and from that alone can
 * tell who has not started, who has stalled and who finished. Pure rules here; the records are in
 * db/ (db/store.ts).
 */
import type { License } from '../../kernel/domain/types.js';

/** What a pass saw of one license: the fields of a student's course in GET /v1/students. */
export interface ProgressObservation {
  licenseId: string;
  poolId: string;
  courseId: string;
  studentId: string;
  studentEmail: string;
  studentName: string;
  /** 0 to 100. */
  progress: number;
  /** When the course was completed, or null. */
  completed: string | null;
  start: string;
  end: string;
  active: boolean;
}

/** What a pass would see of `license` at `progress` (the console's demo data and the tests' seeds). */
export function observationOf(
  license: License,
  progress: number,
  completed: string | null = null,
): ProgressObservation {
  return {
    licenseId: license.id,
    poolId: license.poolId,
    courseId: license.courseId,
    studentId: license.student.id,
    studentEmail: license.student.email,
    studentName: license.student.name,
    progress,
    completed,
    start: license.start,
    end: license.end,
    active: license.active,
  };
}

/** A license's progress as License Desk knows it. */
export interface LicenseProgress extends ProgressObservation {
  /** When License Desk first saw the license (ISO). */
  firstSeenAt: string;
  /** When progress or completion was last seen to change; equal to firstSeenAt until a change is seen. */
  changedAt: string;
  /** The last pass that saw it (ISO). */
  seenAt: string;
}

/**
 * Where a holder stands:
 * - `completed`: the course is completed (a completion date, or 100 %);
 * - `not-started`: 0 % at least `notStartedDays` after the license started;
 * - `stalled`: started, not completed, no change seen for at least `stalledDays`;
 * - `progressing`: anything else (moving, or too new to judge).
 */
export type ProgressStanding = 'completed' | 'not-started' | 'stalled' | 'progressing';

export interface ProgressThresholds {
  /** Days at 0 % after the start before a holder counts as not started (PROGRESS_NOT_STARTED_DAYS, default 14). */
  notStartedDays: number;
  /** Days without a change before a started holder counts as stalled (PROGRESS_STALLED_DAYS, default 30). */
  stalledDays: number;
}

export const DEFAULT_PROGRESS_THRESHOLDS: ProgressThresholds = { notStartedDays: 14, stalledDays: 30 };

const DAY_MS = 86_400_000;

/** Whole days from `from` to `now` (0 when `from` is unreadable or in the future). */
export function daysSince(from: string, now: Date): number {
  const t = Date.parse(from);
  if (Number.isNaN(t)) return 0;
  return Math.max(0, Math.floor((now.getTime() - t) / DAY_MS));
}

export function isCompleted(p: Pick<ProgressObservation, 'progress' | 'completed'>): boolean {
  return p.completed !== null || p.progress >= 100;
}

export function progressStanding(
  p: Pick<LicenseProgress, 'progress' | 'completed' | 'start' | 'changedAt'>,
  now: Date,
  thresholds: ProgressThresholds = DEFAULT_PROGRESS_THRESHOLDS,
): ProgressStanding {
  if (isCompleted(p)) return 'completed';
  if (p.progress <= 0) return daysSince(p.start, now) >= thresholds.notStartedDays ? 'not-started' : 'progressing';
  return daysSince(p.changedAt, now) >= thresholds.stalledDays ? 'stalled' : 'progressing';
}

/**
 * Since when the holder has been where they are: the last change seen, or (0 %) the license's start.
 * `watched` is false when no change was ever seen, so the date is only when License Desk started
 * watching and the words must say "at least".
 */
export function progressSince(p: Pick<LicenseProgress, 'progress' | 'start' | 'changedAt' | 'firstSeenAt'>): {
  at: string;
  watched: boolean;
} {
  if (p.progress <= 0 && p.changedAt === p.firstSeenAt) return { at: p.start, watched: true };
  return { at: p.changedAt, watched: p.changedAt !== p.firstSeenAt };
}

/** Whether two observations differ in what the history records. */
export function progressChanged(
  a: Pick<ProgressObservation, 'progress' | 'completed'>,
  b: Pick<ProgressObservation, 'progress' | 'completed'>,
): boolean {
  return a.progress !== b.progress || (a.completed ?? null) !== (b.completed ?? null);
}

/** Counts of holders per standing (active licenses only). */
export interface StandingCounts {
  completed: number;
  notStarted: number;
  stalled: number;
  progressing: number;
}

export function countStandings(
  rows: readonly Pick<LicenseProgress, 'progress' | 'completed' | 'start' | 'changedAt'>[],
  now: Date,
  thresholds: ProgressThresholds = DEFAULT_PROGRESS_THRESHOLDS,
): StandingCounts {
  const counts: StandingCounts = { completed: 0, notStarted: 0, stalled: 0, progressing: 0 };
  for (const r of rows) {
    const s = progressStanding(r, now, thresholds);
    if (s === 'completed') counts.completed++;
    else if (s === 'not-started') counts.notStarted++;
    else if (s === 'stalled') counts.stalled++;
    else counts.progressing++;
  }
  return counts;
}
