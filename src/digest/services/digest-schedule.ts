/**
 * When the weekly digest is due, and the claim that makes it go out once a week (docs/digest.md).
 *
 * A week is named by the local day its post falls due (DIGEST_DAY at DIGEST_TIME in DIGEST_TZ), e.g.
 * `2026-11-30`. A tick (every minute) asks which week's post fell due most recently; if that week is not
 * claimed yet and the due moment is at most CATCH_UP_DAYS behind, the digest is computed, then in ONE
 * transaction the week is claimed in the `state` table (key `digest`, a conditional write: only if the
 * document still says what was read) and the post is enqueued in the outbox under the key
 * `digest:<week>`. Two replicas that both compute it: one claim wins, the other writes nothing. A crash
 * before the commit leaves nothing (the next tick does it again); after it, the outbox sends it once.
 */
import type { Records } from '../../kernel/db/open.js';
import { localClock, minutesOf } from '../../kernel/services/jobs/daily.js';
import type { Outbox } from '../../kernel/services/outbox.js';
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

function parseState(raw: string | undefined): DigestState {
  try {
    const v = JSON.parse(raw ?? '') as Partial<DigestState>;
    if (v && v.version === 1) return { version: 1, ...(v.week ? { week: v.week } : {}), ...(v.at ? { at: v.at } : {}) };
  } catch {
    // An unreadable document reads as empty: at worst one week's digest is posted again.
  }
  return { version: 1 };
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
  const read = async () =>
    (await records.db.selectFrom('state').select('value').where('key', '=', DIGEST_STATE_KEY).executeTakeFirst())
      ?.value;
  return {
    async lastWeek() {
      return parseState(await read()).week;
    },
    async claimAndEnqueue(week, notice, now) {
      await records.db
        .insertInto('state')
        .values({ key: DIGEST_STATE_KEY, value: JSON.stringify({ version: 1 }), updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return records.db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('state').select('value').where('key', '=', DIGEST_STATE_KEY);
        if (records.dialect === 'postgres') q = q.forUpdate();
        const old = (await q.executeTakeFirst())?.value;
        const state = parseState(old);
        if (state.week !== undefined && state.week >= week) return false;
        const next: DigestState = { version: 1, week, at: now.toISOString() };
        // Conditional: only if the document is still what was read (another replica may have claimed it).
        const updated = await trx
          .updateTable('state')
          .set({ value: JSON.stringify(next), updated_at: now.toISOString() })
          .where('key', '=', DIGEST_STATE_KEY)
          .where('value', '=', old ?? '')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        await outbox.enqueue(trx, notice, `digest:${week}`);
        return true;
      });
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
