/**
 * Reclaim rounds ("still learning?", docs/reclaim.md): an admin asks the holders of transferable pools
 * who stalled or never started whether they still want their seat. Pure rules and the types the
 * use cases (services/) and the builders (blocks/reclaim.ts) share.
 */
import type { ProgressThresholds } from '../../progress/index.js';

const DAY_MS = 86_400_000;

export interface ReclaimSettings extends ProgressThresholds {
  /** RECLAIM_KEEP_DAYS: a holder who chose Keep is left out of rounds this long (default 60). */
  keepDays: number;
  /** RECLAIM_DEADLINE_DAYS: days to answer (default 7). */
  deadlineDays: number;
  /** RECLAIM_REMINDER_DAY: the day of the round on which the unanswered are reminded (default 4). */
  reminderDay: number;
}

export const DEFAULT_RECLAIM_SETTINGS: ReclaimSettings = {
  notStartedDays: 14,
  stalledDays: 30,
  keepDays: 60,
  deadlineDays: 7,
  reminderDay: 4,
};

/** The settings with every unset one at its default. */
export function reclaimSettings(given: { [K in keyof ReclaimSettings]?: number | undefined }): ReclaimSettings {
  const out = { ...DEFAULT_RECLAIM_SETTINGS };
  for (const key of Object.keys(out) as (keyof ReclaimSettings)[]) {
    const v = given[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** What an unanswered ask becomes at the deadline. */
export type ReclaimPolicy = 'release' | 'list';

export const isReclaimPolicy = (v: unknown): v is ReclaimPolicy => v === 'release' || v === 'list';

export type AskStanding = 'not-started' | 'stalled';

/** The two moments of a round started at `at`. */
export function roundTimes(at: Date, s: Pick<ReclaimSettings, 'deadlineDays' | 'reminderDay'>) {
  return {
    remindAt: new Date(at.getTime() + s.reminderDay * DAY_MS).toISOString(),
    deadlineAt: new Date(at.getTime() + s.deadlineDays * DAY_MS).toISOString(),
  };
}

/** One holder the preview would ask (or could not, having no Slack account). */
export interface ReclaimCandidate {
  licenseId: string;
  poolId: string;
  courseTitle: string;
  studentEmail: string;
  studentName: string;
  standing: AskStanding;
  progress: number;
  /** Since when they stand there; `watched` false: only since License Desk started watching ("at least"). */
  since: string;
  watched: boolean;
  daysHeld: number;
  /** The Slack user of the e-mail; absent: not in Slack, cannot be asked. */
  slackUser?: string;
}

export interface ReclaimPoolPreview {
  poolId: string;
  courseTitle: string;
  /** Approved requests waiting for a seat in this pool. */
  waiting: number;
  ask: ReclaimCandidate[];
  notInSlack: ReclaimCandidate[];
  /** Left out: chose Keep within RECLAIM_KEEP_DAYS. */
  keptRecently: number;
  /** Left out: already asked in a round still open. */
  alreadyAsked: number;
  /**
   * The round open for this pool, when there is one: one open round per pool, so nobody else here is
   * asked before it closes (`ask` and `notInSlack` are then empty).
   */
  openRound?: ReclaimOpenRound;
}

/** A round open for a pool (one at most per pool): who started it, when, and its deadline. */
export interface ReclaimOpenRound {
  poolId: string;
  roundId: string;
  admin: string;
  startedAt: string;
  deadlineAt: string;
}

/** What `/licenses reclaim [poolId]` shows before anything is written. */
export type ReclaimPreview =
  /** No progress pass has recorded anything yet: nobody can be judged. */
  | { kind: 'no-records' }
  /** The pool given is untransferable: a revoke there gives no seat back. */
  | { kind: 'untransferable'; poolId: string; courseTitle: string }
  | { kind: 'unknown-pool'; poolId: string }
  | {
      kind: 'preview';
      poolId?: string;
      pools: ReclaimPoolPreview[];
      /** Untransferable pools left out (when no pool was given). */
      untransferable: number;
      settings: ReclaimSettings;
    };

export type AskState = 'asked' | 'releasing' | 'expiring' | 'kept' | 'released' | 'unanswered' | 'failed';

/** A round as the admin's message shows it. */
export interface ReclaimRoundView {
  id: string;
  admin: string;
  poolId?: string;
  policy: ReclaimPolicy;
  closed: boolean;
  deadlineAt: string;
  asked: number;
  kept: number;
  released: number;
  noAnswer: number;
  notInSlack: number;
  failed: number;
  /** Unanswered at the deadline under "only list them" (or failed releases): the admin's to look at. */
  listed: { studentName: string; studentEmail: string; courseTitle: string; licenseId: string }[];
}

/** A round's figures from how many of its asks are in each state (the round message and App Home). */
export function roundFigures(
  count: (state: AskState) => number,
): Pick<ReclaimRoundView, 'asked' | 'kept' | 'released' | 'noAnswer' | 'failed'> & { asked: number } {
  const all: AskState[] = ['asked', 'releasing', 'expiring', 'kept', 'released', 'unanswered', 'failed'];
  return {
    asked: all.reduce((n, s) => n + count(s), 0),
    kept: count('kept'),
    released: count('released'),
    noAnswer: count('asked') + count('expiring') + count('unanswered'),
    failed: count('failed'),
  };
}

/** A round as App Home lists it: its figures without anyone's name. */
export type ReclaimRoundSummary = Omit<ReclaimRoundView, 'listed' | 'admin'>;

/** One ask as the holder's message tells it. */
export interface ReclaimAskNotice {
  askId: string;
  poolId: string;
  courseTitle: string;
  progress: number;
  standing: AskStanding;
  since: string;
  watched: boolean;
  deadlineAt: string;
}

/** What became of a holder's click (services/reclaim-answer.ts). */
export type ReclaimAnswerOutcome =
  | { kind: 'kept'; ask: ReclaimAskNotice; keepDays: number }
  | { kind: 'released'; ask: ReclaimAskNotice }
  | { kind: 'not-yours' }
  | { kind: 'already'; state: AskState; ask: ReclaimAskNotice }
  /** The round closed (or its deadline passed) before the answer: nothing recorded. */
  | { kind: 'too-late'; ask: ReclaimAskNotice }
  /**
   * Another round's ask about the same license was answered first (released, or kept since this round
   * began): this question is closed, nothing recorded.
   */
  | { kind: 'superseded'; ask: ReclaimAskNotice; by: 'released' | 'kept' }
  | { kind: 'release-failed'; ask: ReclaimAskNotice; sentence: string };

/** The outbox notices of reclaim rounds (rendered by slack/reclaim/notices.ts). */
export const RECLAIM_NOTICE_KINDS = ['reclaim-ask', 'reclaim-reminder', 'reclaim-released', 'reclaim-round'] as const;

export type ReclaimNotice =
  | { kind: 'reclaim-ask'; user: string; ask: ReclaimAskNotice }
  | { kind: 'reclaim-reminder'; user: string; asks: ReclaimAskNotice[] }
  | { kind: 'reclaim-released'; user: string; ask: ReclaimAskNotice; by: 'holder' | 'deadline' }
  | { kind: 'reclaim-round'; roundId: string };
