/**
 * When a pool runs out of seats, at the pace of the last weeks (docs/digest.md). Pure: the pool's seats
 * per day they changed (the progress store's `pool_usage`), its seats now and its end go in; a typed
 * forecast comes out, and the blocks word it ("at the last 30 days' rate, pool 2003 is full in about
 * 3 weeks").
 *
 * The rate is the net number of seats assigned per day over the window: the seats in use now, less the
 * seats in use when the window began (the last day recorded on or before its first day), divided by its
 * days. Revokes count against assigns, so a pool whose seats are recycled as fast as they are given
 * has no pace. With less history than the window, the rate is taken over the days there are, as long
 * as there are at least `minHistoryDays`; with fewer, the forecast says it cannot tell yet.
 */
import { DAY_MS } from '../../kernel/domain/time.js';

/** One day on which a pool's seats were recorded (YYYY-MM-DD, UTC), in use (`assigned`) of `licenses`. */
export interface UsageDay {
  day: string;
  assigned: number;
  licenses: number;
}

export interface ForecastInput {
  /** The pool's recorded days, any order; days after `now` are ignored. */
  usage: readonly UsageDay[];
  /** Seats in use and in the pool now (the licensing service's pools list). */
  assigned: number;
  licenses: number;
  /** The pool's end (ISO); unreadable: no end is considered. */
  end: string;
  /**
   * The pool's start (ISO): no history counts from before it (days recorded earlier say nothing of its
   * pace), so a pool started fewer than `minHistoryDays` ago has too little history. Unreadable or
   * absent: the recorded days alone.
   */
  start?: string;
  now: Date;
  /** Default 30. */
  windowDays?: number;
  /** Default 7. */
  minHistoryDays?: number;
}

export type Forecast =
  /** No free seat now. */
  | { kind: 'full' }
  /** Recorded for fewer than minHistoryDays (or never): `days` recorded so far. */
  | { kind: 'too-little-history'; days: number }
  /** The net pace over `overDays` is zero or less. */
  | { kind: 'no-new-seats'; overDays: number }
  /** Full in about `daysToFull` days (on `fullOn`), before the pool ends. */
  | { kind: 'fills'; overDays: number; perDay: number; daysToFull: number; fullOn: string }
  /** At this pace it would be full on `fullOn`, after the pool ends on `endsOn`. */
  | { kind: 'ends-first'; overDays: number; perDay: number; daysToFull: number; fullOn: string; endsOn: string };

export const FORECAST_WINDOW_DAYS = 30;
export const FORECAST_MIN_HISTORY_DAYS = 7;

const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The UTC day of a pool's start, when it can be read. */
function startDay(start: string | undefined): string | undefined {
  const t = start === undefined ? Number.NaN : Date.parse(start);
  return Number.isNaN(t) ? undefined : utcDay(t);
}

/** Seats in use at the end of `day`: the last recorded day on or before it; undefined before any. */
export function assignedOn(usage: readonly UsageDay[], day: string): number | undefined {
  let found: UsageDay | undefined;
  for (const u of usage) if (u.day <= day && (found === undefined || u.day > found.day)) found = u;
  return found?.assigned;
}

export function forecastPool(input: ForecastInput): Forecast {
  const windowDays = input.windowDays ?? FORECAST_WINDOW_DAYS;
  const minHistory = input.minHistoryDays ?? FORECAST_MIN_HISTORY_DAYS;
  const free = input.licenses - input.assigned;
  if (free <= 0) return { kind: 'full' };
  const today = utcDay(input.now.getTime());
  const known = input.usage.filter((u) => u.day <= today);
  if (known.length === 0) return { kind: 'too-little-history', days: 0 };
  const recorded = known.reduce((a, u) => (u.day < a ? u.day : a), known[0]?.day ?? today);
  const started = startDay(input.start);
  const first = started !== undefined && started > recorded ? (started < today ? started : today) : recorded;
  const windowStart = utcDay(dayStart(today) - windowDays * DAY_MS);
  let overDays: number;
  let startAssigned: number;
  if (first <= windowStart) {
    overDays = windowDays;
    startAssigned = assignedOn(known, windowStart) ?? 0;
  } else {
    overDays = Math.round((dayStart(today) - dayStart(first)) / DAY_MS);
    if (overDays < minHistory) return { kind: 'too-little-history', days: overDays };
    startAssigned = assignedOn(known, first) ?? 0;
  }
  const net = input.assigned - startAssigned;
  if (net <= 0) return { kind: 'no-new-seats', overDays };
  const perDay = net / overDays;
  const daysToFull = Math.max(1, Math.ceil(free / perDay));
  const fullAt = dayStart(today) + daysToFull * DAY_MS;
  const fullOn = utcDay(fullAt);
  const end = Date.parse(input.end);
  if (!Number.isNaN(end) && end < fullAt) {
    return { kind: 'ends-first', overDays, perDay, daysToFull, fullOn, endsOn: utcDay(end) };
  }
  return { kind: 'fills', overDays, perDay, daysToFull, fullOn };
}

/** A point of the seats-used chart: a day and the seats in use then (recorded or foreseen). */
export interface UsagePoint {
  day: string;
  assigned: number;
}

/**
 * The chart's two lines: seats in use over the window (one point every `stepDays`, ending today) and,
 * when the pool is filling, the forecast from today to the day it is full or ends (whichever is first),
 * at most `maxAhead` points. Together at most `windowDays / stepDays + 1 + maxAhead` points.
 */
export function usageLines(
  input: ForecastInput & { stepDays?: number; maxAhead?: number },
  forecast: Forecast,
): { used: UsagePoint[]; forecast: UsagePoint[] } {
  const windowDays = input.windowDays ?? FORECAST_WINDOW_DAYS;
  const step = input.stepDays ?? 3;
  const today = dayStart(utcDay(input.now.getTime()));
  const used: UsagePoint[] = [];
  const started = startDay(input.start);
  for (let back = windowDays; back > 0; back -= step) {
    const day = utcDay(today - back * DAY_MS);
    // Before the pool started there was nothing in use to show.
    if (started !== undefined && day < started) continue;
    const a = assignedOn(input.usage, day);
    if (a !== undefined) used.push({ day, assigned: a });
  }
  used.push({ day: utcDay(today), assigned: input.assigned });
  const ahead: UsagePoint[] = [];
  if (forecast.kind === 'fills' || forecast.kind === 'ends-first') {
    const last =
      forecast.kind === 'fills'
        ? forecast.daysToFull
        : Math.max(1, Math.ceil((Date.parse(forecast.endsOn) - today) / DAY_MS));
    const points = Math.min(input.maxAhead ?? 10, last);
    ahead.push({ day: utcDay(today), assigned: input.assigned });
    for (let i = 1; i <= points; i++) {
      const d = Math.round((last * i) / points);
      ahead.push({
        day: utcDay(today + d * DAY_MS),
        assigned: Math.min(input.licenses, Math.round(input.assigned + forecast.perDay * d)),
      });
    }
  }
  return { used, forecast: ahead };
}
