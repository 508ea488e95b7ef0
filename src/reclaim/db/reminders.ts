/**
 * The reminders of the asks (docs/reclaim.md, "Reminder and deadline"): which are due, and at most
 * one a person a day, each ask reminded once whichever process sends it.
 */
import type { Kysely } from 'kysely';
import type { Database, ReclaimAskRow } from '../../kernel/db/schema.js';

export interface ReminderRecords {
  /** Asks still unanswered and never reminded in open rounds whose reminder is due and deadline is not. */
  dueReminders(iso: string): Promise<(ReclaimAskRow & { deadline_at: string })[]>;
  /** Whether the person got a reminder after `since`. */
  remindedSince(user: string, since: string): Promise<boolean>;
  /** Marks an unanswered ask reminded at `iso`, unless it was (by another process); whether this call did. */
  claimReminder(askId: string, iso: string): Promise<boolean>;
}

export function reminderRecords(db: Kysely<Database>): ReminderRecords {
  return {
    dueReminders: (iso) =>
      db
        .selectFrom('reclaim_asks')
        .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
        .selectAll('reclaim_asks')
        .select('reclaim_rounds.deadline_at')
        .where('reclaim_rounds.state', '=', 'open')
        .where('reclaim_rounds.remind_at', '<=', iso)
        .where('reclaim_rounds.deadline_at', '>', iso)
        .where('reclaim_asks.state', '=', 'asked')
        .where('reclaim_asks.reminded_at', 'is', null)
        .orderBy('reclaim_asks.id')
        .execute(),

    async remindedSince(user, since) {
      const row = await db
        .selectFrom('reclaim_asks')
        .select('id')
        .where('slack_user', '=', user)
        .where('reminded_at', '>', since)
        .executeTakeFirst();
      return row !== undefined;
    },

    async claimReminder(askId, iso) {
      const r = await db
        .updateTable('reclaim_asks')
        .set({ reminded_at: iso })
        .where('id', '=', askId)
        .where('reminded_at', 'is', null)
        .where('state', '=', 'asked')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
