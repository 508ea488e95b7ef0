/**
 * A licensing write recorded before it is sent (docs/records.md, "Writes in flight"). A use case
 * opens an intent in the same transaction as the state change it belongs to (a request moving to
 * 'assigning', say), sends the write, then closes the intent with the outcome in the transaction that
 * records that outcome. An intent still open when its process died is settled by the Settler: the
 * handler registered for its kind reads back from the licensing API (never resends blind), records
 * the truth and tells the person through the outbox.
 *
 * Which intents are left over: on SQLite (one process owns the file) every open intent of another
 * process; on PostgreSQL (replicas) those of a process that stopped saying it is alive
 * (instances.seen_at older than `staleMs`). A settler claims an intent by a conditional update before
 * it settles it, so two replicas never settle the same one.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Records } from '../../db/open.js';
import type { Database, IntentRow } from '../../db/schema.js';
import type { Logger } from '../../licensing/types.js';
import { createJobRunner, type Job, type JobRunner } from '../jobs/runner.js';

export interface IntentInput {
  kind: string;
  /** Slack user id of the person the write is for (the admin, the approver). */
  owner: string;
  /** What it belongs to: a request id, a license id, an e-mail. */
  subject?: string;
  poolId?: string;
  /** What is being sent (JSON). */
  body: unknown;
}

export interface Intent {
  id: string;
  kind: string;
  owner: string;
  subject: string | null;
  poolId: string | null;
  body: unknown;
  createdAt: string;
  instance: string;
}

export interface Intents {
  /** Records an open intent in `trx`, the transaction of the state change it belongs to; its id. */
  open(trx: Kysely<Database>, input: IntentInput): Promise<string>;
  /** Records how it ended and closes it (in `trx`, with the state change the outcome makes). */
  close(trx: Kysely<Database>, id: string, outcome: unknown): Promise<void>;
  /** The open intent of `subject` and `kind`, if any (e.g. is this request's assign still in flight?). */
  openFor(subject: string, kind?: string): Promise<Intent | undefined>;
}

export const newIntentId = () => `w${randomBytes(8).toString('hex')}`;

const toIntent = (row: IntentRow): Intent => ({
  id: row.id,
  kind: row.kind,
  owner: row.owner,
  subject: row.subject,
  poolId: row.pool_id,
  body: JSON.parse(row.body) as unknown,
  createdAt: row.created_at,
  instance: row.instance,
});

export function createIntents(records: Records, now: () => Date): Intents {
  return {
    async open(trx, input) {
      const id = newIntentId();
      await trx
        .insertInto('intents')
        .values({
          id,
          kind: input.kind,
          owner: input.owner,
          subject: input.subject ?? null,
          pool_id: input.poolId ?? null,
          instance: records.instance,
          state: 'open',
          created_at: now().toISOString(),
          settled_at: null,
          body: JSON.stringify(input.body ?? null),
          outcome: null,
        })
        .execute();
      return id;
    },
    async close(trx, id, outcome) {
      await trx
        .updateTable('intents')
        .set({ state: 'closed', settled_at: now().toISOString(), outcome: JSON.stringify(outcome ?? null) })
        .where('id', '=', id)
        .execute();
    },
    async openFor(subject, kind) {
      let q = records.db.selectFrom('intents').selectAll().where('subject', '=', subject).where('state', '=', 'open');
      if (kind) q = q.where('kind', '=', kind);
      const row = await q.orderBy('created_at', 'desc').executeTakeFirst();
      return row ? toIntent(row) : undefined;
    },
  };
}

/** Settles open intents left by a process that is gone: at start, then every `everyMs`. */
export interface Settler {
  /** The handler for one kind: reads back, records the truth (closing the intent), tells the person. */
  register(kind: string, settle: (intent: Intent) => Promise<void>): void;
  /** Runs a round now and then every `everyMs`. */
  start(): void;
  /** One round: how many intents were settled (a handler that throws leaves its intent for the next). */
  runOnce(): Promise<number>;
  /**
   * An intent of this live process whose outcome could not be recorded (the database stopped
   * answering after the write was sent): settled like a dead process's, by reading back, in rounds
   * that come sooner while it waits (SOON_MS, doubling up to `everyMs`), so it settles within about
   * a minute of the database's return, whatever the pause between rounds.
   */
  adopt(intentId: string): void;
  stop(): Promise<void>;
}

export interface SettlerOptions {
  records: Records;
  logger: Logger;
  now: () => Date;
  /** Default 60 s. */
  everyMs?: number;
  /** PostgreSQL: a process silent this long is gone. Default 45 s (it says it is alive every 15 s). */
  staleMs?: number;
  /** The runner whose job settles every `everyMs`; default one of its own. */
  jobs?: JobRunner;
}

export const SETTLE_EVERY_MS = 60_000;
export const STALE_INSTANCE_MS = 45_000;
/** The first pause before an adopted intent is tried again (then 10 s, 20 s … up to `everyMs`). */
export const SOON_MS = 5_000;

/** The open intents whose process is gone, and those this process took over and must retry. */
async function leftOver(opts: SettlerOptions, retry: ReadonlySet<string>): Promise<Intent[]> {
  const { records, now } = opts;
  const me = records.instance;
  const open = await records.db
    .selectFrom('intents')
    .selectAll()
    .where('state', '=', 'open')
    .orderBy('created_at')
    .execute();
  const others = open.filter((row) => row.instance !== me);
  const mine = open.filter((row) => row.instance === me && retry.has(row.id)).map(toIntent);
  if (others.length === 0 || records.dialect === 'sqlite') return [...others.map(toIntent), ...mine];
  const cutoff = new Date(now().getTime() - (opts.staleMs ?? STALE_INSTANCE_MS)).toISOString();
  const alive = new Set(
    (await records.db.selectFrom('instances').select('id').where('seen_at', '>=', cutoff).execute()).map((r) => r.id),
  );
  return [...others.filter((row) => !alive.has(row.instance)).map(toIntent), ...mine];
}

/** Takes the intent over from its dead process; false when another settler was first. */
async function takeOver(records: Records, intent: Intent): Promise<boolean> {
  if (intent.instance === records.instance) return true;
  const result = await records.db
    .updateTable('intents')
    .set({ instance: records.instance })
    .where('id', '=', intent.id)
    .where('instance', '=', intent.instance)
    .where('state', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function stillOpen(records: Records, id: string): Promise<boolean> {
  const row = await records.db.selectFrom('intents').select('state').where('id', '=', id).executeTakeFirst();
  return row?.state === 'open';
}

/** Adopted intents closed meanwhile (the requests' own check, another path) wait no more. */
function forgetClosed(open: readonly Intent[], adopted: Set<string>, retry: Set<string>): void {
  for (const id of adopted) {
    if (!open.some((i) => i.id === id)) {
      adopted.delete(id);
      retry.delete(id);
    }
  }
}

export function createSettler(opts: SettlerOptions): Settler {
  const { records, logger } = opts;
  const handlers = new Map<string, (intent: Intent) => Promise<void>>();
  const everyMs = opts.everyMs ?? SETTLE_EVERY_MS;
  let job: Job | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;
  /** Intents this process took over and could not settle yet: its own, so only it retries them. */
  const retry = new Set<string>();
  /** Intents of this process adopted after their outcome could not be recorded, still open. */
  const adopted = new Set<string>();
  let soon: NodeJS.Timeout | undefined;
  let soonMs = SOON_MS;

  /** While an adopted intent waits, the next round comes sooner (growing pauses: no hammering). */
  function soonAgain(): void {
    if (stopped || soon || adopted.size === 0) return;
    soon = setTimeout(() => {
      soon = undefined;
      void runOnce().then(soonAgain);
    }, soonMs);
    soon.unref();
    soonMs = Math.min(everyMs, soonMs * 2);
  }

  /** Settles one intent through its kind's handler; false when another settler took it first. */
  async function settleOne(intent: Intent, handler: (intent: Intent) => Promise<void>): Promise<boolean> {
    if (!(await takeOver(records, intent))) return false;
    retry.add(intent.id);
    await handler({ ...intent, instance: records.instance });
    if (await stillOpen(records, intent.id)) throw new Error('the handler left the intent open');
    retry.delete(intent.id);
    adopted.delete(intent.id);
    logger.info('write in flight settled after a restart', { intent: intent.id, kind: intent.kind });
    return true;
  }

  async function round(): Promise<number> {
    let settled = 0;
    let intents: Intent[];
    try {
      intents = await leftOver(opts, retry);
    } catch (error) {
      logger.warn('settling writes in flight: the records could not be read; trying again later', { error });
      return 0;
    }
    forgetClosed(intents, adopted, retry);
    for (const intent of intents) {
      if (stopped) break;
      const handler = handlers.get(intent.kind);
      if (!handler) {
        logger.error('a write in flight of an unknown kind was left open', { intent: intent.id, kind: intent.kind });
        continue;
      }
      const done = await settleOne(intent, handler).catch((error: unknown) => {
        logger.warn('a write in flight could not be settled yet; trying again in the next round', {
          intent: intent.id,
          kind: intent.kind,
          error,
        });
        return false;
      });
      if (done) settled += 1;
    }
    return settled;
  }

  const runOnce = () => {
    running ??= round().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    register: (kind, settle) => void handlers.set(kind, settle),
    start() {
      stopped = false;
      const jobs = opts.jobs ?? createJobRunner({ logger });
      job ??= jobs.add({ name: 'settle writes in flight', everyMs, firstAfterMs: 0, run: runOnce });
    },
    runOnce,
    adopt(intentId) {
      retry.add(intentId);
      adopted.add(intentId);
      soonMs = SOON_MS;
      soonAgain();
    },
    async stop() {
      stopped = true;
      await job?.stop(0);
      job = undefined;
      if (soon) clearTimeout(soon);
      soon = undefined;
      await running?.catch(() => undefined);
    },
  };
}
