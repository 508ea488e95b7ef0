/**
 * The learner's desk's store (docs/learners.md): every query the feature runs, on SQLite and
 * PostgreSQL. The reminders sent (one per license and end date) and who stopped them. A transaction
 * gives the same store bound to it, with its handle for the outbox messages written in it.
 */
import type { Kysely } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import type { Database } from '../../kernel/db/schema.js';

export interface SentReminder {
  licenseId: string;
  endDay: string;
  slackUser: string;
}

export interface LearnerStore {
  /** The database (or the transaction) this store runs on: what the outbox enqueues with. */
  readonly handle: Kysely<Database>;
  transaction<T>(work: (tx: LearnerStore) => Promise<T>): Promise<T>;
  /** Whether the person chose "Stop these reminders". */
  remindersOff(slackUser: string): Promise<boolean>;
  /** Remembers their choice (on: reminders again). */
  setRemindersOff(slackUser: string, off: boolean, at: string): Promise<void>;
  /** When the person was last sent a reminder (ISO), if ever. */
  lastReminderAt(slackUser: string): Promise<string | undefined>;
  /** Of these licenses, the ones already reminded for this end day (`licenseId|endDay`). */
  remindedOf(keys: readonly { licenseId: string; endDay: string }[]): Promise<Set<string>>;
  /** Records reminders sent; false when one of them was recorded already (another replica sent it). */
  recordSent(rows: readonly SentReminder[], at: string): Promise<boolean>;
}

export const reminderKey = (licenseId: string, endDay: string) => `${licenseId}|${endDay}`;

export function createLearnerStore(records: Pick<Records, 'db' | 'dialect'>): LearnerStore {
  const { db, dialect } = records;
  return {
    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createLearnerStore({ db: trx, dialect }))),

    async remindersOff(slackUser) {
      const row = await db
        .selectFrom('learner_prefs')
        .select('reminders_off')
        .where('slack_user', '=', slackUser)
        .executeTakeFirst();
      return Number(row?.reminders_off ?? 0) === 1;
    },

    async setRemindersOff(slackUser, off, at) {
      await db
        .insertInto('learner_prefs')
        .values({ slack_user: slackUser, reminders_off: off ? 1 : 0, changed_at: at })
        .onConflict((oc) => oc.column('slack_user').doUpdateSet({ reminders_off: off ? 1 : 0, changed_at: at }))
        .execute();
    },

    async lastReminderAt(slackUser) {
      const row = await db
        .selectFrom('learner_reminders')
        .select((eb) => eb.fn.max('sent_at').as('last'))
        .where('slack_user', '=', slackUser)
        .executeTakeFirst();
      return row?.last ?? undefined;
    },

    async remindedOf(keys) {
      const out = new Set<string>();
      const ids = [...new Set(keys.map((k) => k.licenseId))];
      for (let i = 0; i < ids.length; i += 400) {
        const rows = await db
          .selectFrom('learner_reminders')
          .select(['license_id', 'end_day'])
          .where('license_id', 'in', ids.slice(i, i + 400))
          .execute();
        for (const r of rows) out.add(reminderKey(r.license_id, r.end_day));
      }
      return out;
    },

    async recordSent(rows, at) {
      if (rows.length === 0) return true;
      const r = await db
        .insertInto('learner_reminders')
        .values(rows.map((x) => ({ license_id: x.licenseId, end_day: x.endDay, slack_user: x.slackUser, sent_at: at })))
        .onConflict((oc) => oc.columns(['license_id', 'end_day']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === rows.length;
    },
  };
}
