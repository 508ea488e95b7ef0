/**
 * How one pool reads in mrkdwn: title, seats with a bar, transferability, validity, warnings, and what
 * the service reported that cannot be true (a negative count, more assigned than the pool has, no
 * title, an end before the start): the counts shown are clamped at 0 and the row says what was reported.
 */
import { count, hasEnded } from '../domain/count.js';
import { type CountField, courseLabel, type PoolOddity, poolOddities, shownCounts } from '../domain/pool-oddities.js';
import { type PoolWarning, poolWarnings } from '../domain/pool-warnings.js';
import { relativeHint } from '../domain/relative-time.js';
import type { Pool } from '../domain/types.js';
import { availabilityBar, dayText, escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

/** Raw characters of a course title kept in a list row; the full title shows on the pool's own page. */
export const TITLE_MAX = 120;

const WARNING_TEXT: Record<PoolWarning, string> = {
  full: ':red_circle: Full: no seats left',
  'ending-soon': ':hourglass_flowing_sand: Ends within 30 days',
  ended: ':no_entry: Ended: no new licenses',
};

export function validityText(pool: Pick<Pool, 'start' | 'end'>, now: Date): string {
  const end = Date.parse(pool.end);
  const hint = relativeHint(pool.end, now);
  if (!Number.isNaN(end) && end <= now.getTime()) return `Ended ${dayText(pool.end)}${hint ? ` (${hint})` : ''}`;
  const ends = hint ? ` (ends ${hint})` : '';
  const start = Date.parse(pool.start);
  if (!Number.isNaN(start) && start > now.getTime()) {
    return `Starts ${dayText(pool.start)}, valid until ${dayText(pool.end)}${ends}`;
  }
  return `Valid ${dayText(pool.start)} – ${dayText(pool.end)}${ends}`;
}

export function seatsText(reported: Pick<Pool, 'licenses' | 'assignedLicenses' | 'availableLicenses'>): string {
  const pool = shownCounts(reported);
  const bar = availabilityBar(pool.assignedLicenses, pool.licenses);
  return `\`${bar}\` *${pool.availableLicenses}* of ${pool.licenses} available · ${pool.assignedLicenses} assigned`;
}

const COUNT_WORDS: Record<CountField, [string, string]> = {
  availableLicenses: ['free seat', 'free seats'],
  assignedLicenses: ['assigned seat', 'assigned seats'],
  licenses: ['seat in all', 'seats in all'],
};

function oddityText(odd: PoolOddity): string {
  switch (odd.kind) {
    case 'negative': {
      const [one, many] = COUNT_WORDS[odd.field];
      return `the service reports ${count(odd.value, one, many)}`;
    }
    case 'assigned-over-total':
      return `the service reports ${odd.assigned} assigned of ${count(odd.total, 'seat')}`;
    case 'missing-title':
      return 'the service sent no course title';
    case 'end-before-start':
      return 'the service reports an end before the start';
  }
}

/** One line flagging what the service reported that cannot be true, or '' for a sound pool. */
export function odditiesText(pool: Pool): string {
  const odd = poolOddities(pool);
  return odd.length === 0 ? '' : `:warning: ${odd.map(oddityText).join('; ')}`;
}

export function warningsText(pool: Pool, now: Date): string {
  return poolWarnings(pool, now)
    .map((w) => WARNING_TEXT[w])
    .join(' · ');
}

/** An ended pool's free seats can never be assigned: they are "unused", not "available". */
function endedSeatsText(reported: Pick<Pool, 'licenses' | 'assignedLicenses' | 'availableLicenses'>): string {
  const pool = shownCounts(reported);
  const bar = availabilityBar(pool.assignedLicenses, pool.licenses);
  return `\`${bar}\` ${pool.assignedLicenses} of ${pool.licenses} assigned · ${pool.availableLicenses} unused`;
}

export function poolText(pool: Pool, now: Date, titleMax = TITLE_MAX): string {
  const lines = [
    `*${escapeTruncated(courseLabel(pool.course), titleMax)}*  ·  pool \`${escapeMrkdwn(pool.id)}\``,
    hasEnded(pool, now) ? endedSeatsText(pool) : seatsText(pool),
    `${pool.transferable ? ':repeat: Transferable' : ':lock: Not transferable'} · ${validityText(pool, now)}`,
  ];
  const warnings = warningsText(pool, now);
  if (warnings) lines.push(warnings);
  const odd = odditiesText(pool);
  if (odd) lines.push(odd);
  return lines.join('\n');
}
