/**
 * Messages to people, kept with the records (docs/records.md, "The outbox"). A use case enqueues a
 * message in the same transaction as the state change it tells of, so a crash can never keep the
 * change and lose the message, or the other way round. The sender delivers pending messages in the
 * order they were written and marks each one sent once Slack accepted it; one that fails is tried
 * again later (with a growing pause), one that keeps failing is dropped with a log line.
 *
 * What a message says is not decided here: its body is a typed notice (JSON) that the `deliver`
 * function (the Slack layer) renders with the builders of src/blocks/ when it sends it.
 *
 * Exactly once, as far as it can be: a message is claimed by a conditional update before it is sent,
 * so two replicas never send the same one; only a kill between Slack's acceptance and the row's
 * update (a few milliseconds) sends one again.
 */
import type { Kysely } from 'kysely';
import type { Records } from '../db/open.js';
import type { Database } from '../db/schema.js';
import type { Logger } from '../licensing/types.js';
import { createJobRunner, type Job, type JobRunner } from './jobs/runner.js';

export interface Outbox {
  /** Enqueues a message in `trx`; with `key`, at most one message ever has that key (a second is ignored). */
  enqueue(trx: Kysely<Database>, body: unknown, key?: string): Promise<void>;
}

export interface OutboxSender {
  /** Delivers what is pending soon (after a commit that enqueued something). */
  kick(): void;
  /** Delivers everything due now; how many were sent. */
  flush(): Promise<number>;
  /** Delivers now, and adds the job that delivers every `everyMs` (retries, and what another replica enqueued). */
  start(): void;
  stop(): Promise<void>;
  /**
   * Sends what is due (waiting at most `waitMs`) and says whether the message enqueued with `key` was
   * delivered: for a reply that says "they were told" only once they were.
   */
  delivered(key: string, waitMs: number): Promise<boolean>;
}

/**
 * The parts of one message already delivered (a notice that is several Slack calls: DMs to several
 * people, card copies): kept on its row (`result`), so a retry sends only what is left and nobody is
 * told twice. A notice of one Slack call needs none.
 */
export interface NoticeSteps {
  /** Runs `send` unless the part `name` was delivered on an earlier try; records it once `send` resolved. */
  once(name: string, send: () => Promise<void>): Promise<void>;
}

/** Outside the outbox (a direct call, a test): every part is sent. */
export const EVERY_STEP: NoticeSteps = { once: (_name, send) => send() };

/** Thrown by `deliver` when a message can never be delivered (the channel is gone): dropped at once. */
export class Unsendable extends Error {
  override readonly name = 'Unsendable';
}

export interface OutboxOptions {
  records: Records;
  logger: Logger;
  now: () => Date;
  /**
   * Sends one message; returns once Slack accepted it, throws to try again later (every part that
   * failed must throw: a message that returns is marked sent). `steps` holds the parts sent already.
   */
  deliver: (body: unknown, steps: NoticeSteps) => Promise<void>;
  /** Default 5 s. */
  everyMs?: number;
  /** Tries before a message is dropped; default 8 (about 20 minutes of pauses). */
  maxAttempts?: number;
  /** How long a claimed message is someone's before another sender may try it; default 30 s. */
  claimMs?: number;
  /** The runner whose job delivers every `everyMs`; default one of its own. */
  jobs?: JobRunner;
}

export const OUTBOX_EVERY_MS = 5_000;

/** The pause after the n-th failed try: 5 s, 10 s, 20 s … up to 10 minutes. */
export const retryPauseMs = (attempts: number) => Math.min(600_000, 5_000 * 2 ** Math.max(0, attempts - 1));

/** The kind of a notice (its `kind` field), for log lines and App Home: never what it says. */
export function kindOf(body: unknown): string {
  const kind = (body as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind.slice(0, 60) : 'unknown';
}

function partsOf(result: string | null): string[] {
  if (!result) return [];
  try {
    const parts = (JSON.parse(result) as { parts?: unknown }).parts;
    return Array.isArray(parts) ? parts.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** Messages given up (tried as often as allowed, or never deliverable) since `since`: how many, of which kinds. */
export async function givenUpSince(records: Records, since: Date): Promise<{ count: number; kinds: string[] }> {
  const rows = await records.db
    .selectFrom('outbox')
    .select(['body'])
    .where('state', '=', 'dropped')
    .where('due_at', '>=', since.toISOString())
    .limit(1000)
    .execute();
  return { count: rows.length, kinds: [...new Set(rows.map((r) => kindOf(safeParse(r.body))))].sort() };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type DueRow = { id: number; attempts: number; body: string; key: string | null; result: string | null };

/** One round of the sender: the messages due now, each claimed, delivered and marked (or put off). */
function createRound(opts: OutboxOptions, isStopped: () => boolean): () => Promise<number> {
  const { records, logger, now, deliver } = opts;
  const maxAttempts = opts.maxAttempts ?? 8;
  const claimMs = opts.claimMs ?? 30_000;
  const iso = (ms = 0) => new Date(now().getTime() + ms).toISOString();

  async function claim(id: number, attempts: number): Promise<boolean> {
    const result = await records.db
      .updateTable('outbox')
      .set({ attempts: attempts + 1, due_at: iso(claimMs) })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('attempts', '=', attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The parts of a message sent on earlier tries, and how to record one more. */
  function stepsOf(id: number, result: string | null): NoticeSteps {
    const done = new Set<string>(partsOf(result));
    return {
      async once(name, send) {
        if (done.has(name)) return;
        await send();
        done.add(name);
        // A row that cannot be written now (the database is away) only risks that part being sent again.
        await records.db
          .updateTable('outbox')
          .set({ result: JSON.stringify({ parts: [...done] }) })
          .where('id', '=', id)
          .execute()
          .catch((error: unknown) =>
            logger.warn('the outbox could not record a delivered part of a message', {
              message: id,
              error: String(error),
            }),
          );
      },
    };
  }

  /** A try that failed: put off (a growing pause), or given up after the last try or when undeliverable. */
  async function failed(row: DueRow, body: unknown, error: unknown): Promise<void> {
    const tries = row.attempts + 1;
    const give = error instanceof Unsendable || tries >= maxAttempts;
    await records.db
      .updateTable('outbox')
      // A message given up keeps when it was given up in `due_at` (App Home counts the recent ones).
      .set(give ? { state: 'dropped', due_at: iso() } : { due_at: iso(retryPauseMs(tries)) })
      .where('id', '=', row.id)
      .execute()
      .catch(() => undefined);
    // The kind of notice and the row, never its contents (names, e-mails) or Slack's whole answer.
    const fields = { message: row.id, kind: kindOf(body), tries, error: String(error) };
    if (give) {
      logger.error('a message to a person could not be delivered and was given up', {
        ...fields,
        ...(error instanceof Unsendable ? {} : { afterTries: maxAttempts }),
      });
    } else logger.warn('a message to a person could not be delivered yet; trying again later', fields);
  }

  /** Delivers one claimed message: true once Slack took it and the row says so. */
  async function send(row: DueRow): Promise<boolean> {
    const body = safeParse(row.body);
    try {
      await deliver(body, stepsOf(row.id, row.result));
      await records.db.updateTable('outbox').set({ state: 'sent', sent_at: iso() }).where('id', '=', row.id).execute();
      return true;
    } catch (error) {
      await failed(row, body, error);
      return false;
    }
  }

  return async () => {
    let sent = 0;
    const due = await records.db
      .selectFrom('outbox')
      .select(['id', 'attempts', 'body', 'key', 'result'])
      .where('state', '=', 'pending')
      .where('due_at', '<=', iso())
      .orderBy('id')
      .limit(100)
      .execute();
    for (const row of due) {
      if (isStopped()) break;
      if (!(await claim(row.id, row.attempts))) continue;
      if (await send(row)) sent += 1;
    }
    return sent;
  };
}

/** Enqueues `body` in `trx` (at most one message ever with `key`). */
async function enqueueIn(trx: Kysely<Database>, at: string, body: unknown, key?: string): Promise<void> {
  await trx
    .insertInto('outbox')
    .values({
      key: key ?? null,
      created_at: at,
      due_at: at,
      state: 'pending',
      attempts: 0,
      body: JSON.stringify(body),
      sent_at: null,
      result: null,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Whether the message enqueued with `key` was sent. */
async function sentByKey(records: Records, key: string): Promise<boolean> {
  const row = await records.db
    .selectFrom('outbox')
    .select(['state'])
    .where('key', '=', key)
    .executeTakeFirst()
    .catch(() => undefined);
  return row?.state === 'sent';
}

export function createOutbox(opts: OutboxOptions): Outbox & OutboxSender {
  const { records, logger, now } = opts;
  const everyMs = opts.everyMs ?? OUTBOX_EVERY_MS;
  let job: Job | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  const iso = () => now().toISOString();
  const round = createRound(opts, () => stopped);

  function flush(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        try {
          total += await round();
        } catch (error) {
          logger.warn('the outbox could not be read; trying again later', { error });
        }
      } while (again && !stopped);
      return total;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    enqueue: (trx, body, key) => enqueueIn(trx, iso(), body, key),
    kick() {
      if (!stopped) void flush();
    },
    flush,
    start() {
      stopped = false;
      // SQLite belongs to one process: a message claimed by the process that ran before is free now.
      const free =
        records.dialect === 'sqlite'
          ? records.db.updateTable('outbox').set({ due_at: iso() }).where('state', '=', 'pending').execute()
          : Promise.resolve();
      void free.catch(() => undefined).then(flush);
      const jobs = opts.jobs ?? createJobRunner({ logger });
      job ??= jobs.add({ name: 'outbox', everyMs, run: flush });
    },
    async delivered(key, waitMs) {
      if (!stopped) {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, waitMs);
        });
        await Promise.race([flush().catch(() => 0), late]);
        clearTimeout(timer);
      }
      return sentByKey(records, key);
    },
    async stop() {
      stopped = true;
      await job?.stop(0);
      job = undefined;
      await running?.catch(() => undefined);
    },
  };
}
