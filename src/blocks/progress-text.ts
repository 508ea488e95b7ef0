/**
 * Learning progress in words (docs/progress.md): where a holder stands, since when, and each pool's
 * counts. "at least" when License Desk has seen no change since it started watching. Pure.
 */
import { count } from '../domain/count.js';
import {
  DEFAULT_PROGRESS_THRESHOLDS,
  daysSince,
  type LicenseProgress,
  type ProgressThresholds,
  progressSince,
  progressStanding,
} from '../domain/progress.js';
import { dayText } from './mrkdwn.js';
import { percentText } from './percent.js';

const pct = percentText;

/**
 * One line for a holder: "Completed Mar 2, 2026", "Not started after 20 days", "42 % · no progress
 * since Mar 2, 2026" (stalled), "42 % · last progress Mar 2, 2026", with "at least" where it applies.
 */
export function progressLine(
  p: LicenseProgress,
  now: Date,
  thresholds: ProgressThresholds = DEFAULT_PROGRESS_THRESHOLDS,
): string {
  const standing = progressStanding(p, now, thresholds);
  const since = progressSince(p);
  const atLeast = since.watched ? '' : 'at least ';
  switch (standing) {
    case 'completed': {
      // The service's completion date; without one (100 % only), the day License Desk saw it.
      const at = p.completed ?? since.at;
      return `:white_check_mark: Completed ${p.completed || since.watched ? '' : 'by '}${dayText(at)}`;
    }
    case 'not-started':
      return `:zzz: Not started after ${count(daysSince(p.start, now), 'day')}`;
    case 'stalled':
      return `:hourglass: ${pct(p.progress)} · no progress since ${atLeast}${dayText(since.at)}`;
    case 'progressing':
      if (p.progress <= 0) return `0 % · licensed ${count(daysSince(p.start, now), 'day')} ago`;
      return since.watched
        ? `${pct(p.progress)} · last progress ${dayText(since.at)}`
        : `${pct(p.progress)} · no change seen since ${dayText(since.at)}`;
  }
}

/** For a license the pass has not seen yet. */
export const PROGRESS_NOT_READ = 'Progress not recorded yet: the daily progress pass has not seen this license.';

/** A pool's holders by standing, for App Home: "3 not started · 2 stalled · 5 completed", or undefined when none. */
export function standingCountsText(c: { notStarted: number; stalled: number; completed: number }): string | undefined {
  const parts = [
    c.notStarted > 0 ? `${c.notStarted} not started` : undefined,
    c.stalled > 0 ? `${c.stalled} stalled` : undefined,
    c.completed > 0 ? `${c.completed} completed` : undefined,
  ].filter((s): s is string => s !== undefined);
  return parts.length > 0 ? `:bar_chart: ${parts.join(' · ')}` : undefined;
}
