/**
 * Shedding (docs/rate-limiting.md, "The parts"): the jobs waiting for a slot, bounded by maxQueue.
 * Past it a job is refused at once with QueueFullError and an honest "try again in" from the queue
 * length; the same counts give estimateWaitMs.
 */
import { QueueFullError } from '../errors.js';
import type { Priority } from '../limiter.js';

/** QueueFullError needs an endpoint; the limiter does not know which request it paces. */
export const QUEUE_ENDPOINT = 'rate limiter';

export interface QueueEntry {
  priority: Priority;
}

export interface WaitQueue<E extends QueueEntry> {
  /** The error for one job more, or undefined while there is room. */
  refusal(): QueueFullError | undefined;
  enter(entry: E): void;
  /** Idempotent: a job leaves once, when it starts or fails. */
  leave(entry: E): void;
  waiting(): number;
  /** The jobs still waiting, for failing them all at once. */
  entries(): E[];
  /**
   * Estimated wait for a job of this priority submitted now. `freeInMs` (soonest first), when given, says
   * when the slots holding after their answer come free, so a full window costs what is left of it.
   */
  estimateWaitMs(
    priority: Priority,
    state: { held: number; pauseLeftMs: number; freeInMs?: readonly number[] },
  ): number;
}

export function createWaitQueue<E extends QueueEntry>(opts: {
  maxQueue: number;
  /** The limit in force now. */
  limit: () => number;
  /** Slots background work may take under a limit. */
  backgroundCap: (limit: number) => number;
  /** How long a slot stays taken: the window plus the margin. */
  holdMs: number;
}): WaitQueue<E> {
  const pending = new Set<E>();
  let interactive = 0;

  return {
    refusal() {
      if (pending.size < opts.maxQueue) return undefined;
      const retryInSec = Math.max(1, Math.ceil(((pending.size / opts.limit()) * opts.holdMs) / 1000));
      return new QueueFullError(retryInSec, { endpoint: QUEUE_ENDPOINT });
    },
    enter(entry) {
      if (pending.has(entry)) return;
      pending.add(entry);
      if (entry.priority === 'interactive') interactive++;
    },
    leave(entry) {
      if (!pending.delete(entry)) return;
      if (entry.priority === 'interactive') interactive--;
    },
    waiting: () => pending.size,
    entries: () => [...pending],
    estimateWaitMs(priority, { held, pauseLeftMs, freeInMs = [] }) {
      const current = opts.limit();
      const capacity = priority === 'interactive' ? current : Math.min(current, opts.backgroundCap(current));
      const ahead = priority === 'interactive' ? interactive : pending.size;
      const free = Math.max(0, capacity - held);
      const position = ahead + 1;
      if (position <= free) return pauseLeftMs;
      // The slot this job would take next is the (position - free)-th to come free, when that one holds now.
      const next = freeInMs[position - free - 1];
      if (next !== undefined && position - free <= capacity) return Math.max(pauseLeftMs, next);
      return pauseLeftMs + Math.ceil((position - free) / capacity) * opts.holdMs;
    },
  };
}
