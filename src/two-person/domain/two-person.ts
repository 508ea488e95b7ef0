/**
 * The two-person rule for mass changes (docs/roles-and-approvals.md, "A second pair of eyes on mass
 * changes"): a bulk job of more than TWO_PERSON_MIN_ROWS rows, or a reclaim round over more than that
 * many holders, waits for a second admin's yes. Pure: the rules and the types the store, the use cases
 * and the builders share.
 */

/** TWO_PERSON_MIN_ROWS (0: the rule is off) and TWO_PERSON_EXPIRY_HOURS. */
export interface TwoPersonSettings {
  minRows: number;
  expiryHours: number;
}

export const TWO_PERSON_DEFAULTS: TwoPersonSettings = { minRows: 20, expiryHours: 24 };

/** The settings over their defaults. */
export function twoPersonSettings(given: { minRows?: number | undefined; expiryHours?: number | undefined } = {}) {
  return {
    minRows: given.minRows ?? TWO_PERSON_DEFAULTS.minRows,
    expiryHours: given.expiryHours ?? TWO_PERSON_DEFAULTS.expiryHours,
  };
}

/** Does a change of `rows` rows (or holders) need a second admin? Never when the rule is off (0). */
export function needsSecondPerson(settings: TwoPersonSettings, rows: number): boolean {
  return settings.minRows > 0 && rows > settings.minRows;
}

/** What a held change is, with the dry run's figures the card shows. */
export type MassChangeFigures =
  | {
      kind: 'bulk';
      poolId: string;
      courseTitle: string;
      /** Rows the job will send. */
      rows: number;
      /** Of those, sent with recycle (the oldest seats ended first). */
      recycle: number;
      /** Rows the dry run set aside (already enrolled, bad e-mail…). */
      notSent: number;
      seatsFree: number;
      endDate?: string;
    }
  | {
      kind: 'reclaim';
      /** The pool, or absent for a round over every pool. */
      poolId?: string;
      pools: { poolId: string; courseTitle: string; holders: number }[];
      /** Holders to ask. */
      holders: number;
      notInSlack: number;
      policy: 'release' | 'list';
    };

export type MassChangeKind = MassChangeFigures['kind'];

/** The size the rule is judged by: rows sent, or holders asked. */
export function sizeOf(figures: MassChangeFigures): number {
  return figures.kind === 'bulk' ? figures.rows : figures.holders;
}

/**
 * A held change's life: `confirm` (nobody else can approve: its admin is asked to send it anyway),
 * `pending` (cards out), then `approved` (the start is under way) and `started`, or `rejected`,
 * `expired`, `cancelled` (the sole admin declined).
 */
export type ChangeState = 'confirm' | 'pending' | 'approved' | 'started' | 'rejected' | 'expired' | 'cancelled';

export interface MassChange {
  id: string;
  submitter: string;
  figures: MassChangeFigures;
  /** The pools it touches: whoever decides must hold every one of them in their scope. */
  poolIds: string[];
  /** The plan exactly as previewed (a bulk job, a reclaim round's holders): what the start runs. */
  plan: unknown;
  state: ChangeState;
  createdAt: string;
  expiresAt: string;
  decidedBy?: string;
  decidedAt?: string;
}

/** Why a decision is refused, or undefined when `actor` may decide now. */
export type DecisionRefusal = 'own' | 'decided' | 'expired' | 'unknown';

export function decisionRefusal(
  change: Pick<MassChange, 'submitter' | 'state' | 'expiresAt'> | undefined,
  actor: string,
  now: Date,
): DecisionRefusal | undefined {
  if (!change) return 'unknown';
  if (change.state !== 'pending') return change.state === 'expired' ? 'expired' : 'decided';
  if (now.toISOString() >= change.expiresAt) return 'expired';
  return change.submitter === actor ? 'own' : undefined;
}

/** The end of a change's wait for a decision. */
export function expiryOf(at: Date, settings: Pick<TwoPersonSettings, 'expiryHours'>): string {
  return new Date(at.getTime() + settings.expiryHours * 3_600_000).toISOString();
}

/** The notices of this feature: a card to each other admin, and the submitter told of the end. */
export type TwoPersonNotice =
  | {
      kind: 'two-person-card';
      to: string;
      changeId: string;
      submitter: string;
      figures: MassChangeFigures;
      expiresAt: string;
    }
  | {
      kind: 'two-person-told';
      to: string;
      changeId: string;
      figures: MassChangeFigures;
      outcome: 'approved' | 'rejected' | 'expired' | 'not-started';
      by?: string;
    };

export const TWO_PERSON_NOTICE_KINDS = ['two-person-card', 'two-person-told'] as const;
