/**
 * Why a change sent nothing: the refusals its use case (src/services/) finds on fresh reads, shared
 * with the words for the person (src/changes/blocks/refusal-text.ts). Pure types.
 */
import type { AssignDateProblem, EndDateBlocker } from '../../kernel/domain/end-date.js';
import type { License } from '../../kernel/domain/types.js';
import type { RecycleProblem } from './recycle.js';

/** Why the newcomer cannot take a seat of a pool, whatever happens to the seats. */
export type NewcomerProblem =
  | { kind: 'email' }
  | { kind: 'domain'; allowed: readonly string[] }
  | { kind: 'end-date'; problem: AssignDateProblem; poolEnd: string }
  | { kind: 'enrolled'; license: License };

/** Why nothing is sent for a recycle confirmation. */
export type RecycleRefusal =
  | RecycleProblem
  | NewcomerProblem
  /** The default: the API's rule would now end another license than the one the confirmation named. */
  | { kind: 'not-the-pick'; named: string | undefined; pick: License | undefined };

/** Why a Retry assign sends nothing. */
export type RetryRefusal =
  /** The license said to have been revoked for this seat is still active, or of another pool. */
  | { kind: 'not-freed'; license: License }
  | { kind: 'pool-ended' }
  /** The freed seat was taken meanwhile. */
  | { kind: 'seat-taken' }
  | NewcomerProblem;

/** Why a new end date is not sent, from the license and its pool as they are now. */
export type EndDateRefusal =
  | { kind: EndDateBlocker }
  | { kind: 'after-pool-end'; poolEnd: string }
  | { kind: 'unchanged' };
