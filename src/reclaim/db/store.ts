/**
 * The reclaim rounds' store (docs/reclaim.md): every query the feature runs, on SQLite and PostgreSQL.
 * The rounds (rounds.ts), their asks (asks.ts) and the asks' reminders (reminders.ts). A transaction
 * gives the same store bound to one transaction, with its handle for the outbox messages written in it.
 */
import type { Kysely } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import type { Database } from '../../kernel/db/schema.js';
import { type AskRecords, askRecords } from './asks.js';
import { type ReminderRecords, reminderRecords } from './reminders.js';
import { type RoundRecords, roundRecords } from './rounds.js';

export interface ReclaimStore extends RoundRecords, AskRecords, ReminderRecords {
  /** The database (or the transaction) this store runs on: what the outbox enqueues with. */
  readonly handle: Kysely<Database>;
  /** Runs `work` in one transaction, on a store bound to it; a throw rolls everything back. */
  transaction<T>(work: (tx: ReclaimStore) => Promise<T>): Promise<T>;
}

export function createReclaimStore(records: Pick<Records, 'db' | 'dialect'>): ReclaimStore {
  const { db, dialect } = records;
  return {
    ...roundRecords(db),
    ...askRecords(db, dialect),
    ...reminderRecords(db),
    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createReclaimStore({ db: trx, dialect }))),
  };
}
