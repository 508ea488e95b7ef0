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
  const maxWaiting = o.maxWaiting ?? 100;
  const timers = o.timers ?? realTimers;
  const { logger, channel } = opts;
  const waiting = () => sender.length() + folds.size();
  const sender = createPacedSender({
    ...{ post: opts.post, logger, channel, timers },
    paceMs: o.paceMs ?? 1000,
    maxAttempts: o.maxAttempts ?? 5,
    afterPost: () => {
      if (drops.pending() && waiting() <= maxWaiting / 2) drops.report();
    },
  });
  const folds = createRefusalFolds({
    quietMs: o.foldQuietMs ?? 5000,
    foldMaxMs: o.foldMaxMs ?? 60_000,
    timers,
    release: (item) => {
      sender.push(item);
      sender.schedule();
    },
  });
  const drops = createDrops({ logger, channel, maxWaiting, push: sender.push });
  let closed: Promise<FlushResult> | undefined;

  function flush(timeoutMs: number): Promise<FlushResult> {
    folds.releaseAll();
    drops.report();
    const before = sender.posted();
    const result = (): FlushResult => ({ posted: sender.posted() - before, unsent: sender.length() });
    if (sender.idle()) return Promise.resolve(result());
    sender.schedule();
    return sender.whenIdle(timeoutMs, result);
  }

  return {
    get waiting() {
      return waiting();
    },
    add(entry) {
      if (closed) {
        logger.warn('audit channel: stopping, so this entry is not posted; it is in the log and the audit table', {
          channel,
          entry: describeEntry(entry),
        });
      } else if (entry.outcome === 'refused' && folds.has(entry.actor)) {
        folds.fold(entry);
      } else if (waiting() >= maxWaiting) {
        drops.drop(entry);
      } else if (entry.outcome === 'refused') {
        folds.open(entry);
      } else {
        sender.push({ kind: 'entry', entry });
        sender.schedule();
      }
    },
    flush,
    close(timeoutMs) {
      closed ??= (async () => {
        const result = await flush(timeoutMs);
        const unsent = sender.stop();
        if (unsent.length > 0) {
          logger.warn(
            'audit channel: posts not sent (or not confirmed) before stopping; they are in the log and the audit table',
            { channel, unsent: unsent.map(describePost) },
          );
        }
        return result;
      })();
      return closed;
    },
  };
}

function describeEntry(entry: AuditEntry) {
  return { actor: entry.actor, action: entry.action, outcome: entry.outcome, at: entry.at };
}

function describePost(item: QueuedPost) {
  return item.kind === 'entry'
    ? describeEntry(item.entry)
    : item.kind === 'burst'
      ? { actor: item.burst.actor, refusals: item.burst.count }
      : { dropped: item.count };
}

function warnNotPosted(logger: Logger, channel: string, item: QueuedPost, error: unknown): void {
  logger.warn('could not post to the audit channel', {
    channel,
    error: String(error),
    ...(item.kind === 'entry' ? { entry: describeEntry(item.entry) } : { post: item.kind }),
    note: 'the entry is in the log and the audit table',
  });
}

/** The posts in line, sent one at a time at the channel's pace; a 429 sends the same post again later. */
interface PacedSender {
  /** Puts a post at the end of the line; schedule() starts sending. */
  push(item: QueuedPost): void;
  schedule(): void;
  length(): number;
  /** Posts that reached the channel so far. */
  posted(): number;
  /** Nothing in line and nothing in flight. */
  idle(): boolean;
  /** Resolves with `result()` once idle, or after timeoutMs. */
  whenIdle<T>(timeoutMs: number, result: () => T): Promise<T>;
  /** Sends nothing more; returns what was still in line. */
  stop(): QueuedPost[];
}

function createPacedSender(o: {
  post: (item: QueuedPost) => Promise<void>;
  logger: Logger;
  channel: string;
  paceMs: number;
  maxAttempts: number;
  timers: QueueTimers;
  /** After each try, before anyone waiting for the line to empty is told. */
  afterPost: () => void;
}): PacedSender {
  const { logger, channel, timers } = o;
  const queue: { item: QueuedPost; attempts: number }[] = [];
  let sending = false;
  let nextAt = 0;
  let paceTimer: unknown;
  let posted = 0;
  let stopped = false;
  const listeners = new Set<() => void>();
  const idle = () => queue.length === 0 && !sending;

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
    nextAt = timers.now() + o.paceMs;
    head.attempts += 1;
    try {
      await o.post(head.item);
      posted += 1;
      queue.shift();
    } catch (error) {
      if (error instanceof PostRateLimitedError && head.attempts < o.maxAttempts) {
        // The same post goes again, first in line, once Slack's Retry-After has passed.
        nextAt = Math.max(nextAt, timers.now() + error.retryAfterMs);
        logger.info('audit channel: Slack asked to slow down; the post is retried', {
          channel,
          retryAfterMs: error.retryAfterMs,
          attempt: head.attempts,
        });
      } else {
        queue.shift();
        warnNotPosted(logger, channel, head.item, error);
      }
    } finally {
      sending = false;
    }
    o.afterPost();
    for (const l of listeners) l();
    schedule();
  }

  return {
    push: (item) => {
      queue.push({ item, attempts: 0 });
    },
    schedule,
    length: () => queue.length,
    posted: () => posted,
    idle,
    whenIdle: (timeoutMs, result) => whenSettled({ timers, listeners, idle, timeoutMs, result }),
    stop() {
      stopped = true;
      timers.clearTimeout(paceTimer);
      paceTimer = undefined;
      return queue.splice(0).map(({ item }) => item);
    },
  };
}

/** Resolves with `result()` when a listener call finds `idle()`, or after timeoutMs. */
function whenSettled<T>(o: {
  timers: QueueTimers;
  listeners: Set<() => void>;
  idle: () => boolean;
  timeoutMs: number;
  result: () => T;
}): Promise<T> {
  return new Promise((resolve) => {
    // Kept alive: a shutdown awaiting this must not exit while a post waits for its turn.
    const timer = o.timers.setTimeout(done, o.timeoutMs, true);
    const check = () => {
      if (o.idle()) done();
    };
    function done() {
      o.timers.clearTimeout(timer);
      o.listeners.delete(check);
      resolve(o.result());
    }
    o.listeners.add(check);
  });
}

/** Refusals by one person, folded into one post until they pause (foldQuietMs) or foldMaxMs has passed. */
interface RefusalFolds {
  has(actor: string): boolean;
  /** Opens a burst with this refusal. */
  open(entry: AuditEntry): void;
  /** Adds a refusal to its actor's open burst. */
  fold(entry: AuditEntry): void;
  releaseAll(): void;
  size(): number;
}

function createRefusalFolds(o: {
  quietMs: number;
  foldMaxMs: number;
  timers: QueueTimers;
  release: (item: QueuedPost) => void;
}): RefusalFolds {
  const { quietMs, foldMaxMs, timers } = o;
  // `first`: the burst's only entry while it has one (posted as an ordinary entry then).
  const bursts = new Map<
    string,
    { burst: RefusalBurst; openedAt: number; timer: unknown; first: AuditEntry | undefined }
  >();

  function release(actor: string): void {
    const open = bursts.get(actor);
    if (!open) return;
    timers.clearTimeout(open.timer);
    bursts.delete(actor);
    const { burst } = open;
    o.release(
      burst.count === 1 && open.first
        ? { kind: 'entry', entry: open.first }
        : { kind: 'burst', burst, windowMs: timers.now() - open.openedAt },
    );
  }

  return {
    has: (actor) => bursts.has(actor),
    open(entry) {
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
      bursts.set(entry.actor, { burst, openedAt: timers.now(), timer, first: entry });
    },
    fold(entry) {
      const open = bursts.get(entry.actor);
      if (!open) return;
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
      const left = open.openedAt + foldMaxMs - timers.now();
      open.timer = timers.setTimeout(() => release(entry.actor), Math.max(0, Math.min(quietMs, left)));
    },
    releaseAll: () => {
      for (const actor of [...bursts.keys()]) release(actor);
    },
    size: () => bursts.size,
  };
}

/** Posts dropped while too many wait: one warning when it starts, one post and one line once there is room. */
function createDrops(o: { logger: Logger; channel: string; maxWaiting: number; push: (item: QueuedPost) => void }) {
  let dropped: { count: number; firstAt: string; lastAt: string } | undefined;
  return {
    pending: () => dropped !== undefined,
    drop(entry: AuditEntry): void {
      if (!dropped) {
        dropped = { count: 0, firstAt: entry.at, lastAt: entry.at };
        o.logger.warn(
          `audit channel: ${o.maxWaiting} posts are waiting, so new ones are dropped until it catches up; every entry is still in the log and the audit table`,
          { channel: o.channel },
        );
      }
      dropped.count += 1;
      dropped.lastAt = entry.at;
    },
    /** Once the queue has room again (or at a flush): one log line and one post saying what was dropped. */
    report(): void {
      if (!dropped) return;
      const d = dropped;
      dropped = undefined;
      o.logger.warn('audit channel: posts were dropped while it was behind', {
        channel: o.channel,
        dropped: d.count,
        firstAt: d.firstAt,
        lastAt: d.lastAt,
      });
      o.push({ kind: 'dropped', ...d });
    },
  };
}
