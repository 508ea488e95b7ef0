/** What the progress views show beyond one holder (docs/progress.md): App Home's counts and its seats to return. */
import { type Scope, withinScope } from '../../kernel/domain/scope.js';

/** A pool's active holders by where they stand. */
export interface PoolStandings {
  poolId: string;
  holders: number;
  completed: number;
  notStarted: number;
  stalled: number;
}

/** A completed license of a transferable pool: revoking it gives the seat back. */
export interface ReturnableSeat {
  licenseId: string;
  poolId: string;
  studentName: string;
  studentEmail: string;
  /** When it was completed (the service's date), or when License Desk saw it at 100 %. */
  completedAt: string;
}

export interface HomeProgress {
  standings: PoolStandings[];
  /** The most recent completions first, capped. */
  returnable: ReturnableSeat[];
  /** How many there are in all. */
  returnableTotal: number;
  /** When the last complete pass began (ISO), if any. */
  lastPassAt?: string;
}

/**
 * App Home's progress for a person whose role covers `scope`: their pools' counts and seats to return
 * (the total is then that of the seats listed, the most recent of every pool's).
 */
export function homeProgressWithin(scope: Scope, progress: HomeProgress): HomeProgress {
  if (scope.all) return progress;
  const returnable = withinScope(scope, progress.returnable, (s) => s.poolId);
  return {
    ...progress,
    standings: withinScope(scope, progress.standings, (s) => s.poolId),
    returnable,
    returnableTotal: returnable.length,
  };
}
