/**
 * Leavers (docs/leavers-and-offers.md#leavers): the rules and types of a deactivated member's seats on hold. Pure: every
 * rule takes `now`.
 */
import { DAY_MS } from '../../kernel/domain/time.js';

/** LEAVER_GRACE_DAYS: days a leaver's seats stay on hold before they are returned; `off`: no leaver handling. */
export interface LeaverSettings {
  on: boolean;
  /** 0 to 90; default 7. */
  graceDays: number;
}

export const LEAVER_DEFAULTS: LeaverSettings = { on: true, graceDays: 7 };

/** The setting's value read: `off`, or a whole number of days from 0 to 90; undefined when it is neither. */
export function leaverSettingsOf(value: string | undefined): LeaverSettings | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return LEAVER_DEFAULTS;
  if (v === 'off') return { on: false, graceDays: LEAVER_DEFAULTS.graceDays };
  if (!/^\d{1,2}$/.test(v)) return undefined;
  const days = Number(v);
  return days <= 90 ? { on: true, graceDays: days } : undefined;
}

export const LEAVER_GRACE_PROBLEM =
  'LEAVER_GRACE_DAYS must be off (leavers are not handled) or a whole number of days from 0 to 90 (default 7) that a deactivated member’s seats stay on hold before they are returned';

/** When the seats of someone found deactivated at `since` are returned. */
export function dueOf(since: Date, graceDays: number): Date {
  return new Date(since.getTime() + graceDays * DAY_MS);
}

/** Slack's users.lookupByEmail is Tier 3 (about 50 a minute): the sweep keeps one lookup per 1.2 s. */
export const SLACK_LOOKUP_PACE_MS = 60_000 / 50;

/** The week a sweep belongs to: its Monday, YYYY-MM-DD (UTC). */
export function weekOf(now: Date): string {
  const day = (now.getUTCDay() + 6) % 7;
  return new Date(now.getTime() - day * DAY_MS).toISOString().slice(0, 10);
}

/** One license put on hold. */
export interface HeldSeat {
  licenseId: string;
  poolId: string;
  courseTitle?: string;
  transferable: boolean;
}

/** A license on hold as App Home lists it. */
export interface ListedHold extends HeldSeat {
  email: string;
  slackUser?: string;
  since: string;
  due: string;
  /** 'held': waiting for the grace; 'listed': untransferable, past the grace, left to the admins. */
  state: 'held' | 'listed';
}

/** What became of a deactivation. */
export type HoldOutcome =
  | { kind: 'off' }
  /** Holds nothing (or no e-mail is known): only logged. */
  | { kind: 'nothing'; reason: 'no-email' | 'no-student' | 'no-license' }
  /** The licensing service could not be read: nothing recorded, the next sweep tries again. */
  | { kind: 'unread'; sentence: string }
  | { kind: 'held'; seats: HeldSeat[]; due: string; fresh: boolean };

/** Where one return ended. */
export type ReturnEnd = 'returned' | 'failed' | 'gone' | 'later';

export const LEAVER_NOTICE_KINDS = ['leaver-held', 'leaver-cancelled', 'leaver-returns'] as const;

/** The alert channel's posts: each once (keyed in the outbox). */
export type LeaverNotice =
  | {
      kind: 'leaver-held';
      channel: string;
      slackUser?: string;
      seats: HeldSeat[];
      due: string;
      /** Found by the weekly sweep, not by Slack's event. */
      bySweep?: boolean;
    }
  | { kind: 'leaver-cancelled'; channel: string; slackUser?: string; seats: number }
  | {
      kind: 'leaver-returns';
      channel: string;
      returned: HeldSeat[];
      listed: HeldSeat[];
      failed: HeldSeat[];
    };
