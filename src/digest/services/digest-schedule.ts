/**
 * When the weekly digest is due, and the claim that makes it go out once a week (docs/digest.md).
 *
 * A week is named by the local day its post falls due (DIGEST_DAY at DIGEST_TIME in DIGEST_TZ), e.g.
 * `2026-11-30`. A tick (every minute) asks which week's post fell due most recently; if that week is not
 * claimed yet and the due moment is at most CATCH_UP_DAYS behind, the digest is computed, then in ONE
 * transaction the week is claimed in the `state` table (key `digest`, through its one writer,
 * stateDocument's locked read-modify-write: only if no later or equal week is claimed) and the post is
 * enqueued in the outbox under the key `digest:<week>`. Two replicas that both compute it: one claim
 * wins, the other writes nothing. A crash before the commit leaves nothing (the next tick does it
 * again); after it, the outbox sends it once.
 */
import type { Records } from '../../kernel/db/open.js';
import { localClock, minutesOf } from '../../kernel/services/jobs/daily.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import { stateDocument } from '../../kernel/services/state-records.js';
import type { Digest } from '../domain/digest.js';

export const DIGEST_STATE_KEY = 'digest';
export const DIGEST_NOTICE_KIND = 'digest';
/** A post that fell due longer ago than this (the app was down all that time) waits for next week. */
export const CATCH_UP_DAYS = 2;

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY_MS = 86_400_000;

export interface DigestSchedule {
  day: string;
  time: string;
  timeZone: string;
}

/**
 * The most recent week whose post fell due at or before `now`, and how many minutes ago it fell due.
 * The week is the local date (YYYY-MM-DD) of that due day.
 */
export function dueWeek(now: Date, s: DigestSchedule): { week: string; lateMinutes: number } {
  const { day, minutes } = localClock(now, s.timeZone);
  const today = Date.parse(`${day}T00:00:00Z`);
  const dow = new Date(today).getUTCDay();
  const target = WEEKDAYS.indexOf(s.day as (typeof WEEKDAYS)[number]);
  const at = minutesOf(s.time);
  let back = (dow - target + 7) % 7;
  if (back === 0 && minutes < at) back = 7;
  const week = new Date(today - back * DAY_MS).toISOString().slice(0, 10);
  return { week, lateMinutes: back * 24 * 60 + minutes - at };
}

export interface DigestNotice {
  kind: typeof DIGEST_NOTICE_KIND;
  channel: string;
  week: string;
  /** Without names (withoutNames), and only the chart pool's lines. */
  digest: Digest;
}

interface DigestState {
  version: 1;
  /** The last week claimed, and when. */
  week?: string;
  at?: string;
}

/** The document as stored; anything else reads as empty (at worst one week's digest is posted again). */
function parseState(v: unknown): DigestState | undefined {
  const d = v as Partial<DigestState> | null;
  if (d?.version !== 1) return undefined;
  return { version: 1, ...(d.week ? { week: d.week } : {}), ...(d.at ? { at: d.at } : {}) };
}

export interface DigestClaims {
  /** The last week claimed (read afresh). */
  lastWeek(): Promise<string | undefined>;
  /**
   * Claims `week` and enqueues its post in one transaction; false when this or another process
   * already claimed it (nothing written then).
   */
  claimAndEnqueue(week: string, notice: DigestNotice, now: Date): Promise<boolean>;
}

export function digestClaims(records: Records, outbox: Pick<Outbox, 'enqueue'>): DigestClaims {
  const doc = stateDocument<DigestState>(records, DIGEST_STATE_KEY, {
    empty: () => ({ version: 1 }),
    parse: parseState,
  });
  return {
    async lastWeek() {
      return (await doc.read()).week;
    },
    claimAndEnqueue(week, notice, now) {
      return doc.updateIf(
        (state) => {
          if (state.week !== undefined && state.week >= week) return false;
          state.week = week;
          state.at = now.toISOString();
          return true;
        },
        (trx) => outbox.enqueue(trx, notice, `digest:${week}`),
      );
    },
  };
}

/** What a channel post may hold: no names, and the lines of the charted pool only (a small outbox row). */
export function digestForPost(d: Digest): Digest {
  const { names: _names, ...rest } = d;
  return {
    ...rest,
    courses: d.courses.map((c) => ({
      ...c,
      pools: c.pools.map((p) => (p.poolId === d.chartPoolId ? p : { ...p, lines: { used: [], forecast: [] } })),
    })),
    endingSoon: d.endingSoon.map((p) => ({ ...p, lines: { used: [], forecast: [] } })),
  };
}
