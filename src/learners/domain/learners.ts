/**
 * The learner's own desk (docs/learners.md): their licenses as they see them, what became of "Return
 * my seat", the reminders before a license ends and their setting. Pure: rules take `now`.
 */
import type { License, Pool } from '../../kernel/domain/types.js';
import type { WriteReport } from '../../kernel/domain/writes/report.js';
import type { LicenseProgress } from '../../progress/index.js';

/** One license of the member, as `/licenses mine` and App Home list it. */
export interface MyLicense {
  licenseId: string;
  poolId: string;
  courseTitle: string;
  /** Completion percentage, 0 to 100: the progress records' when they know it, else the licensing API's. */
  progress: number;
  /** When the course was completed, or null. */
  completed: string | null;
  /** The license's end (YYYY-MM-DD or ISO, as the service gives it). */
  end: string;
}

/** A license as the progress records hold it, its course named from `titles` (by pool) when known. */
export function myLicenseOf(p: LicenseProgress, titles: ReadonlyMap<string, string>): MyLicense {
  return {
    licenseId: p.licenseId,
    poolId: p.poolId,
    courseTitle: titles.get(p.poolId) ?? `course ${p.courseId}`,
    progress: p.progress,
    completed: p.completed,
    end: p.end,
  };
}

/** What `/licenses mine` found for the person asking. */
export type MineOutcome =
  /** Slack shows no e-mail for them (hidden, a missing scope, Slack busy): `sentence` says which. */
  | { kind: 'no-email'; sentence: string }
  /** The e-mail matches no student of the licensing account. */
  | { kind: 'no-student'; email: string }
  /** The licensing service could not be read: `sentence` says why. */
  | { kind: 'unread'; sentence: string }
  | { kind: 'listed'; email: string; licenses: MyLicense[] }
  /** App Home reads the progress records only (no licensing request): they hold none for this e-mail. */
  | { kind: 'none-recorded'; email: string };

/** Why a license cannot be given back from here. */
export type ReturnRefusal =
  /** The license belongs to someone else (a forged or forwarded click). */
  | 'not-yours'
  /** An untransferable pool never gets a seat back: returning it would only end the learner's access. */
  | 'untransferable'
  | 'inactive'
  | 'expired'
  | 'not-revokable';

/** The fresh read behind "Return my seat" and its confirmation. */
export type ReturnCheck =
  | { kind: 'unread'; licenseId: string; sentence: string }
  | { kind: 'refused'; licenseId: string; refusal: ReturnRefusal; courseTitle?: string }
  | { kind: 'returnable'; license: License; pool: Pool };

/** What became of a confirmed return. */
export type ReturnOutcome =
  | Exclude<ReturnCheck, { kind: 'returnable' }>
  | { kind: 'written'; license: License; courseTitle: string; write: WriteReport<License>; seatGiven: boolean };

/** The license's e-mail is the member's own (case does not matter). */
export function isOwn(license: Pick<License, 'student'>, email: string): boolean {
  return license.student.email.trim().toLowerCase() === email.trim().toLowerCase();
}

/** LEARNER_REMIND_DAYS: days before a license ends that its holder is reminded; undefined: off. */
export interface LearnerSettings {
  remindDays: number | undefined;
}

export const LEARNER_DEFAULTS: LearnerSettings = { remindDays: 7 };

/** At most one reminder a week to one person. */
export const REMIND_GAP_DAYS = 7;

export const DAY_MS = 86_400_000;

/** The day (YYYY-MM-DD) of an end as the service gives it. */
export const endDayOf = (end: string): string => end.slice(0, 10);

/**
 * The window of ends a reminder is for, as end days: after today, and at most `days` days ahead.
 * A license ending today or earlier is past reminding.
 */
export function remindWindow(now: Date, days: number): { after: string; until: string } {
  const today = now.toISOString().slice(0, 10);
  const until = new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);
  return { after: today, until };
}

/** May this person be sent a reminder now, the last one sent at `lastSentAt` (ISO)? */
export function weekPassed(lastSentAt: string | undefined, now: Date): boolean {
  if (!lastSentAt) return true;
  const last = Date.parse(lastSentAt);
  return Number.isNaN(last) || now.getTime() - last >= REMIND_GAP_DAYS * DAY_MS;
}

export const LEARNER_NOTICE_KINDS = ['learner-reminder'] as const;

/** A reminder's DM: the licenses ending soon, with their progress and end. */
export interface LearnerReminderNotice {
  kind: 'learner-reminder';
  user: string;
  licenses: MyLicense[];
}

/** LEARNER_REMIND_DAYS as the configuration read it (`off`, or 1 to 90; unset: the default, 7). */
export function learnerSettings(remindDays: string | undefined): LearnerSettings {
  if (remindDays === undefined) return LEARNER_DEFAULTS;
  return { remindDays: remindDays === 'off' ? undefined : Number(remindDays) };
}
