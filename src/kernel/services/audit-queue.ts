/**
 * The audit channel's post queue: one post at a time, at Slack's pace for one channel (about one
 * message a second), a burst of refusals by one person folded into one post, a 429 retried after
 * its Retry-After, a bound on what waits, and a flush that a shutdown can await. The log line and
 * the audit table's row are written before anything gets here (services/audit.ts); this only decides what
 * reaches the channel and when. Timers are injected, so tests need no real-time waits, and never keep
 * the process alive on their own. The behaviour is described in docs/audit-trail.md.
 */
import type { AuditEntry } from '../domain/audit-entry.js';
import type { Logger } from '../licensing/types.js';

/** The clock and timers the queue runs on. */
export interface QueueTimers {
  now(): number;
  /** `keepAlive` false (the default): the timer does not keep the process running. */
  setTimeout(fn: () => void, ms: number, keepAlive?: boolean): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: QueueTimers = {
  now: () => Date.now(),
  setTimeout(fn, ms, keepAlive = false) {
    const timer = setTimeout(fn, ms);
    if (!keepAlive) timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What a post function throws when Slack answers 429: the queue waits and tries the same post again. */
export class PostRateLimitedError extends Error {
  override readonly name = 'PostRateLimitedError';
  constructor(readonly retryAfterMs: number) {
    super(`rate limited; retry after ${retryAfterMs} ms`);
  }
}

export interface AuditPostingOptions {
  /** Least time between the starts of two posts; default 1000 (Slack: ~1 message a second a channel). */
  paceMs?: number;
  /** A refusal waits this long for further refusals by the same person; default 5000. */
  foldQuietMs?: number;
  /** ...but a refusal burst is posted at the latest this long after its first refusal; default 60_000. */
  foldMaxMs?: number;
  /** Posts waiting (queued, plus open refusal bursts) past which a new one is dropped; default 100. */
  maxWaiting?: number;
  /** Tries of one post that Slack keeps answering with 429; default 5. */
  maxAttempts?: number;
  timers?: QueueTimers;
}

/** A burst of refusals by one person, folded into one post. */
export interface RefusalBurst {
  actor: string;
  count: number;
  firstAt: string /* ISO, of the first refusal */;
  lastAt: string;
  /** What was tried, e.g. "extend license `4001`", with how often; at most 10 kinds, the rest counted. */
  tries: Map<string, number>;
  otherTries: number;
  lastDetail?: string;
}

export type QueuedPost =
  | { kind: 'entry'; entry: AuditEntry }
  | { kind: 'burst'; burst: RefusalBurst; windowMs: number }
  | { kind: 'dropped'; count: number; firstAt: string; lastAt: string };

export interface FlushResult {
  /** Posts that reached the channel during the flush. */
  posted: number;
  /** Posts still waiting (or in flight) when the flush ended. */
  unsent: number;
}

export interface AuditPostQueue {
  add(entry: AuditEntry): void;
  /** Posts every burst at once and the queue at its pace; resolves when it is empty or after `timeoutMs`. */
  flush(timeoutMs: number): Promise<FlushResult>;
  /** Flushes, then stops: later entries are not posted (a log line says so), unsent ones are logged. */
  close(timeoutMs: number): Promise<FlushResult>;
  /** Waiting posts (queued plus open bursts). */
  readonly waiting: number;
}

const MAX_TRY_KINDS = 10;

/** The short verb of a refused attempt, where the action's name is not one already. */
const TRIED_WORDS: Partial<Record<AuditEntry['action'], string>> = {
  'bulk-assign': 'bulk assign',
  requested: 'request a course',
  approved: 'approve a request',
  denied: 'deny a request',
  waitlisted: 'put a request on the waitlist',
  'waitlist-moved': 'move a request on the waitlist',
  'waitlist-removed': 'remove a request from the waitlist',
  assigned: 'give a waitlisted request a seat',
  expired: 'expire a request',
  cancelled: 'cancel a request',
};

/** "extend license `4001`": the short form of what a refused entry tried. */
export function triedOf(entry: AuditEntry): string {
  const what =
    entry.action === 'command'
      ? `use /licenses${entry.command ? ` ${entry.command}` : ''}`
      : (TRIED_WORDS[entry.action] ?? entry.action);
  const target = entry.licenseId ? ` license \`${entry.licenseId}\`` : entry.poolId ? ` pool \`${entry.poolId}\`` : '';
  return `${what}${target}`;
}

export function createAuditPostQueue(opts: {
  post: (item: QueuedPost) => Promise<void>;
  logger: Logger;
  channel: string;
  options?: AuditPostingOptions;
}): AuditPostQueue {
  const o = opts.options ?? {};
  const paceMs = o.paceMs ?? 1000;
  const quietMs = o.foldQuietMs ?? 5000;
  const foldMaxMs = o.foldMaxMs ?? 60_000;
  const maxWaiting = o.maxWaiting ?? 100;
  const maxAttempts = o.maxAttempts ?? 5;
  const timers = o.timers ?? realTimers;
  const { logger, channel } = opts;

  const queue: { item: QueuedPost; attempts: number }[] = [];
  // `first`: the burst's only entry while it has one (posted as an ordinary entry then).
  const bursts = new Map<
    string,
    { burst: RefusalBurst; openedAt: number; timer: unknown; first: AuditEntry | undefined }
  >();
  let sending = false;
  let nextAt = 0;
  let paceTimer: unknown;
  let posted = 0;
  let closed: Promise<FlushResult> | undefined;
  let stopped = false;
  let dropped: { count: number; firstAt: string; lastAt: string } | undefined;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  const waiting = () => queue.length + bursts.size;

  function describe(entry: AuditEntry) {
    return { actor: entry.actor, action: entry.action, outcome: entry.outcome, at: entry.at };
  }

  function drop(entry: AuditEntry): void {
    if (!dropped) {
      dropped = { count: 0, firstAt: entry.at, lastAt: entry.at };
      logger.warn(
        `audit channel: ${maxWaiting} posts are waiting, so new ones are dropped until it catches up; every entry is still in the log and the audit table`,
        { channel },
      );
    }
    dropped.count += 1;
    dropped.lastAt = entry.at;
  }

  /** Once the queue has room again (or at a flush): one log line and one post saying what was dropped. */
  function reportDropped(): void {
    if (!dropped) return;
    const d = dropped;
    dropped = undefined;
    logger.warn('audit channel: posts were dropped while it was behind', {
      channel,
      dropped: d.count,
      firstAt: d.firstAt,
      lastAt: d.lastAt,
    });
    queue.push({ item: { kind: 'dropped', ...d }, attempts: 0 });
  }

  function schedule(): void {
    if (sending || paceTimer !== undefined || queue.length === 0 || stopped) return;
    const wait = nextAt - timers.now();
    if (wait <= 0) {
      void sendNext();
      return;
    }
    paceTimer = timers.setTimeout(() => {
      paceTimer = undefined;
      schedule();
    }, wait);
  }

  async function sendNext(): Promise<void> {
    const head = queue[0];
    if (!head) return;
    sending = true;
    const startedAt = timers.now();
    nextAt = startedAt + paceMs;
    head.attempts += 1;
    try {
      await opts.post(head.item);
      posted += 1;
      queue.shift();
    } catch (error) {
      if (error instanceof PostRateLimitedError && head.attempts < maxAttempts) {
        // The same post goes again, first in line, once Slack's Retry-After has passed.
        nextAt = Math.max(nextAt, timers.now() + error.retryAfterMs);
        logger.info('audit channel: Slack asked to slow down; the post is retried', {
          channel,
          retryAfterMs: error.retryAfterMs,
          attempt: head.attempts,
        });
      } else {
        queue.shift();
        logger.warn('could not post to the audit channel', {
          channel,
          error: String(error),
          ...(head.item.kind === 'entry' ? { entry: describe(head.item.entry) } : { post: head.item.kind }),
          note: 'the entry is in the log and the audit table',
        });
      }
    } finally {
      sending = false;
    }
    if (dropped && waiting() <= maxWaiting / 2) reportDropped();
    changed();
    schedule();
  }

  function release(actor: string): void {
    const open = bursts.get(actor);
    if (!open) return;
    timers.clearTimeout(open.timer);
    bursts.delete(actor);
    const { burst } = open;
    const item: QueuedPost =
      burst.count === 1 && open.first
        ? { kind: 'entry', entry: open.first }
        : { kind: 'burst', burst, windowMs: timers.now() - open.openedAt };
    queue.push({ item, attempts: 0 });
    schedule();
  }

  function refusal(entry: AuditEntry): void {
    const open = bursts.get(entry.actor);
    const now = timers.now();
    if (!open) {
      if (waiting() >= maxWaiting) {
        drop(entry);
        return;
      }
      const burst: RefusalBurst = {
        actor: entry.actor,
        count: 1,
        firstAt: entry.at,
        lastAt: entry.at,
        tries: new Map([[triedOf(entry), 1]]),
        otherTries: 0,
        ...(entry.detail ? { lastDetail: entry.detail } : {}),
      };
      const timer = timers.setTimeout(() => release(entry.actor), Math.min(quietMs, foldMaxMs));
      bursts.set(entry.actor, { burst, openedAt: now, timer, first: entry });
      return;
    }
    const { burst } = open;
    burst.count += 1;
    burst.lastAt = entry.at;
    if (entry.detail) burst.lastDetail = entry.detail;
    const tried = triedOf(entry);
    if (burst.tries.has(tried) || burst.tries.size < MAX_TRY_KINDS)
      burst.tries.set(tried, (burst.tries.get(tried) ?? 0) + 1);
    else burst.otherTries += 1;
    open.first = undefined; // no longer a single entry
    timers.clearTimeout(open.timer);
    const left = open.openedAt + foldMaxMs - now;
    open.timer = timers.setTimeout(() => release(entry.actor), Math.max(0, Math.min(quietMs, left)));
  }

  function flush(timeoutMs: number): Promise<FlushResult> {
    for (const actor of [...bursts.keys()]) release(actor);
    reportDropped();
    const before = posted;
    const result = (): FlushResult => ({ posted: posted - before, unsent: queue.length });
    if (queue.length === 0 && !sending) return Promise.resolve(result());
    schedule();
    return new Promise((resolve) => {
      // Kept alive: a shutdown awaiting this must not exit while a post waits for its turn.
      const timer = timers.setTimeout(done, timeoutMs, true);
      const check = () => {
        if (queue.length === 0 && !sending) done();
      };
      function done() {
        timers.clearTimeout(timer);
        listeners.delete(check);
        resolve(result());
      }
      listeners.add(check);
    });
  }

  return {
    get waiting() {
      return waiting();
    },
    add(entry) {
      if (closed) {
        logger.warn('audit channel: stopping, so this entry is not posted; it is in the log and the audit table', {
          channel,
          entry: describe(entry),
        });
        return;
      }
      if (entry.outcome === 'refused') {
        refusal(entry);
        return;
      }
      if (waiting() >= maxWaiting) {
        drop(entry);
        return;
      }
      queue.push({ item: { kind: 'entry', entry }, attempts: 0 });
      schedule();
    },
    flush,
    close(timeoutMs) {
      closed ??= (async () => {
        const result = await flush(timeoutMs);
        stopped = true;
        timers.clearTimeout(paceTimer);
        paceTimer = undefined;
        if (queue.length > 0) {
          const unsent = queue
            .splice(0)
            .map(({ item }) =>
              item.kind === 'entry'
                ? describe(item.entry)
                : item.kind === 'burst'
                  ? { actor: item.burst.actor, refusals: item.burst.count }
                  : { dropped: item.count },
            );
          logger.warn(
            'audit channel: posts not sent (or not confirmed) before stopping; they are in the log and the audit table',
            {
              channel,
              unsent,
            },
          );
        }
        return result;
      })();
      return closed;
    },
  };
}
