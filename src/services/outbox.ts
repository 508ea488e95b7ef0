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

export interface Outbox {
  /** Enqueues a message in `trx`; with `key`, at most one message ever has that key (a second is ignored). */
  enqueue(trx: Kysely<Database>, body: unknown, key?: string): Promise<void>;
}

export interface OutboxSender {
  /** Delivers what is pending soon (after a commit that enqueued something). */
  kick(): void;
  /** Delivers everything due now; how many were sent. */
  flush(): Promise<number>;
  /** Delivers now and then every `everyMs` (retries, and what another replica enqueued). */
  start(): void;
  stop(): Promise<void>;
}

/** Thrown by `deliver` when a message can never be delivered (the channel is gone): dropped at once. */
export class Undeliverable extends Error {
  override readonly name = 'Undeliverable';
}

export interface OutboxOptions {
  records: Records;
  logger: Logger;
  now: () => Date;
  /** Sends one message; returns once Slack accepted it, throws to try again later. */
  deliver: (body: unknown) => Promise<void>;
  /** Default 5 s. */
  everyMs?: number;
  /** Tries before a message is dropped; default 8 (about 20 minutes of pauses). */
  maxAttempts?: number;
  /** How long a claimed message is someone's before another sender may try it; default 30 s. */
  claimMs?: number;
}

export const OUTBOX_EVERY_MS = 5_000;

/** The pause after the n-th failed try: 5 s, 10 s, 20 s … up to 10 minutes. */
export const retryPauseMs = (attempts: number) => Math.min(600_000, 5_000 * 2 ** Math.max(0, attempts - 1));

export function createOutbox(opts: OutboxOptions): Outbox & OutboxSender {
  const { records, logger, now, deliver } = opts;
  const everyMs = opts.everyMs ?? OUTBOX_EVERY_MS;
  const maxAttempts = opts.maxAttempts ?? 8;
  const claimMs = opts.claimMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
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

  async function round(): Promise<number> {
    let sent = 0;
    const due = await records.db
      .selectFrom('outbox')
      .select(['id', 'attempts', 'body', 'key'])
      .where('state', '=', 'pending')
      .where('due_at', '<=', iso())
      .orderBy('id')
      .limit(100)
      .execute();
    for (const row of due) {
      if (stopped) break;
      if (!(await claim(row.id, row.attempts))) continue;
      const tries = row.attempts + 1;
      try {
        await deliver(JSON.parse(row.body) as unknown);
        await records.db
          .updateTable('outbox')
          .set({ state: 'sent', sent_at: iso() })
          .where('id', '=', row.id)
          .execute();
        sent += 1;
      } catch (error) {
        const give = error instanceof Undeliverable || tries >= maxAttempts;
        await records.db
          .updateTable('outbox')
          .set(give ? { state: 'dropped' } : { due_at: iso(retryPauseMs(tries)) })
          .where('id', '=', row.id)
          .execute()
          .catch(() => undefined);
        const fields = { message: row.id, ...(row.key ? { key: row.key } : {}), tries, error };
        if (give) logger.error('a message to a person could not be delivered and was given up', fields);
        else logger.warn('a message to a person could not be delivered yet; trying again later', fields);
      }
    }
    return sent;
  }

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
    async enqueue(trx, body, key) {
      const stamp = iso();
      await trx
        .insertInto('outbox')
        .values({
          key: key ?? null,
          created_at: stamp,
          due_at: stamp,
          state: 'pending',
          attempts: 0,
          body: JSON.stringify(body),
          sent_at: null,
          result: null,
        })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
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
      timer = setInterval(() => void flush(), everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
