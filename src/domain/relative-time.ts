/**
 * Human hints for dates ("in 3 weeks", "2 months ago"). date-fns has no week unit, and managers
 * think of license ends in weeks, so 14–59 days are given in weeks; the rest is date-fns.
 */
import { formatDistanceStrict } from 'date-fns/formatDistanceStrict';
import { DAY_MS } from './time.js';

export function relativeHint(iso: string, now: Date): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const diff = at - now.getTime();
  const days = Math.abs(diff) / DAY_MS;
  if (days < 1) return diff >= 0 ? 'within a day' : 'less than a day ago';
  if (days >= 14 && days < 60) {
    const weeks = Math.round(days / 7);
    return diff >= 0 ? `in ${weeks} weeks` : `${weeks} weeks ago`;
  }
  const unit = days < 60 ? 'day' : days < 730 ? 'month' : 'year';
  return formatDistanceStrict(at, now, { addSuffix: true, unit, roundingMethod: 'round' });
}
