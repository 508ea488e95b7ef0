/**
 * What the Slackbot read tools answer, as data (docs/slackbot.md): the use cases (services/reads.ts)
 * fill it, the builders (blocks/answers.ts) word it, the tools (slack/tools.ts) return it as their
 * structured output.
 */
import type { EndDateRefusal, RecycleRefusal } from '../../changes/index.js';
import type { Forecast } from '../../digest/index.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import type { WriteReport } from '../../kernel/domain/writes/report.js';

export interface PoolRow {
  poolId: string;
  course: string;
  licenses: number;
  assigned: number;
  free: number;
  start: string;
  end: string;
  transferable: boolean;
}

export interface StandingCounts {
  holders: number;
  completed: number;
  notStarted: number;
  stalled: number;
}

export interface PoolDetail extends PoolRow {
  /** From the progress records (the last daily pass); absent without them. */
  standing?: StandingCounts;
  forecast?: Forecast;
}

export interface PoolForecast {
  poolId: string;
  course: string;
  free: number;
  end: string;
  forecast: Forecast;
}

export interface HolderRow {
  licenseId: string;
  poolId: string;
  course: string;
  name: string;
  email: string;
  progress: number;
  standing: string;
  end: string;
}

export interface PersonLicense {
  licenseId: string;
  poolId: string;
  course: string;
  name?: string;
  email?: string;
  progress: number;
  completed: string | null;
  end: string;
}

export interface WaitingRow {
  requestId: string;
  poolId: string;
  requester: string;
  since: string;
  /** Its place in the pool's line; absent for a request still waiting for a decision. */
  place?: number;
  course?: string;
}

export type PersonAnswer =
  | { kind: 'listed'; licenses: PersonLicense[]; from: 'records' | 'licensing' }
  | { kind: 'none'; sentence?: string };

export type PoolFound<T> = { kind: 'found'; value: T } | { kind: 'not-found'; poolId: string };

/** What became of a confirmed end-date change: not read, refused by a rule, or written (its report). */
export type ExtendResult =
  | { kind: 'unread'; sentence: string }
  | { kind: 'refused'; refusal: EndDateRefusal }
  | { kind: 'written'; report: WriteReport<License> };

/** What became of a recycle: not read, refused by a rule (on `licenseId`), or written (the license it ended). */
export type RecycleResult =
  | { kind: 'unread'; sentence: string }
  | { kind: 'refused'; refusal: RecycleRefusal; licenseId: string | undefined }
  | { kind: 'written'; report: WriteReport<License>; ended: License; pool: Pool };
