/**
 * Learning progress in words (docs/progress.md): where a holder stands, since when, and each pool's
 * counts. "at least" when License Desk has seen no change since it started watching. Pure.
 */

import { type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { dayText } from '../../kernel/blocks/mrkdwn.js';
import { percentText } from '../../kernel/blocks/percent.js';
import { count } from '../../kernel/domain/count.js';
import {
  DEFAULT_PROGRESS_THRESHOLDS,
  daysSince,
  type LicenseProgress,
  type ProgressThresholds,
  progressSince,
  progressStanding,
} from '../domain/progress.js';

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

/** "Run the progress pass now", where it stands: what App Home's line and the DM at its end say. */
export type ProgressRunResult =
  | { kind: 'off' }
  | { kind: 'busy' }
  | { kind: 'started'; allowance: number; windowMs: number }
  | { kind: 'not-due' }
  | { kind: 'held' }
  | { kind: 'done'; seen: number; added: number; changed: number; closed: number; requests: number; ms: number }
  | { kind: 'stopped' }
  | { kind: 'lost' }
  | { kind: 'failed' };

function duration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 120 ? count(s, 'second') : count(Math.round(s / 60), 'minute');
}

/** One mrkdwn line about the progress pass an admin asked for (App Home's top line, the DM at its end). */
export function progressRunLine(r: ProgressRunResult): string {
  switch (r.kind) {
    case 'off':
      return ':information_source: The progress pass is off in this process (`PROGRESS_PASS=off`): nothing was run.';
    case 'busy':
    case 'held':
      return ':hourglass_flowing_sand: A progress pass is already running: nothing new was started. It goes on at its share of the licensing budget; App Home shows what it recorded as it goes.';
    case 'started': {
      const perMinute = Math.max(1, Math.round((r.allowance * 60_000) / r.windowMs));
      return `:arrows_counterclockwise: The progress pass is running now, like the daily one: at most ${count(perMinute, 'licensing request')} a minute (its share of the budget), about one request per 100 students. You get a DM when it is done.`;
    }
    case 'not-due':
      return ':information_source: The progress pass was not due: nothing was run.';
    case 'done':
      return `:white_check_mark: The progress pass is done: ${count(r.seen, 'license')} read (${r.added.toLocaleString('en-US')} new, ${r.changed.toLocaleString('en-US')} changed), ${count(r.closed, 'license')} no longer held, in ${duration(r.ms)} and ${count(r.requests, 'licensing request')}.`;
    case 'stopped':
      return ':pause_button: The progress pass stopped because License Desk is stopping; it goes on from where it was at the next start.';
    case 'lost':
      return ':information_source: Another License Desk process took the progress pass over; it finishes it there.';
    case 'failed':
      return ":warning: The progress pass failed before its end (see License Desk's log); what it read is kept, and it goes on from there at the next try.";
  }
}

/** The DM at the end of a pass an admin asked for: the same line as App Home's. */
export function buildProgressRunMessage(r: ProgressRunResult): SlackMessage {
  const line = progressRunLine(r);
  return { text: line, blocks: [section(line)] };
}
