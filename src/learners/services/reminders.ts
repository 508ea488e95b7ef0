/**
 * The reminder before a license ends (docs/learners.md): a job of the one runner finds, in the
 * progress records (no licensing read per license), the active licenses not completed whose end is
 * within LEARNER_REMIND_DAYS; each holder who is a member of the workspace, has not stopped these
 * reminders and was not reminded in the last week gets one DM for all of theirs not yet reminded for
 * their end date. The DM is queued in the outbox in the transaction that records the reminders, so
 * it goes out once, whatever the replicas and restarts.
 */
import type { CallOptions, LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import type { LicenseProgress, ProgressStore } from '../../progress/index.js';
import { type LearnerStore, reminderKey } from '../db/store.js';
import {
  endDayOf,
  type LearnerReminderNotice,
  type LearnerSettings,
  myLicenseOf,
  remindWindow,
  weekPassed,
} from '../domain/learners.js';

const BACKGROUND: CallOptions = { priority: 'background' };

/** People looked up in Slack at most per run (users.lookupByEmail); the rest wait for the next run. */
export const REMIND_PEOPLE_PER_RUN = 40;

export interface ReminderOptions {
  store: LearnerStore;
  progress: Pick<ProgressStore, 'endingBetween'>;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The member's Slack user by e-mail; undefined when the workspace has no such member (or a guest). */
  lookupUser: (email: string) => Promise<string | undefined>;
  now: () => Date;
  settings: LearnerSettings;
  logger: Logger;
}

export interface ReminderRun {
  sent: number;
  /** People who could not be reminded now: no Slack member, stopped, or reminded within the week. */
  skipped: number;
}

export async function sendReminders(o: ReminderOptions): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, skipped: 0 };
  const days = o.settings.remindDays;
  if (days === undefined) return run;
  const now = o.now();
  const window = remindWindow(now, days);
  const ending = (await o.progress.endingBetween(window.after, window.until)).filter(
    (p) => p.completed === null && p.progress < 100,
  );
  if (ending.length === 0) return run;
  const done = await o.store.remindedOf(ending.map((p) => ({ licenseId: p.licenseId, endDay: endDayOf(p.end) })));
  const byEmail = new Map<string, LicenseProgress[]>();
  for (const p of ending) {
    if (done.has(reminderKey(p.licenseId, endDayOf(p.end)))) continue;
    byEmail.set(p.studentEmail, [...(byEmail.get(p.studentEmail) ?? []), p]);
  }
  if (byEmail.size === 0) return run;
  const titles = await courseTitles(o);
  for (const [email, licenses] of [...byEmail].slice(0, REMIND_PEOPLE_PER_RUN)) {
    const user = await o.lookupUser(email);
    if (!user || (await o.store.remindersOff(user)) || !weekPassed(await o.store.lastReminderAt(user), now)) {
      run.skipped += 1;
      continue;
    }
    if (await remind(o, user, licenses, titles, now)) run.sent += 1;
  }
  if (run.sent > 0) o.outbox.kick();
  return run;
}

/** The pools' course titles (one cached read at background priority); none when it fails. */
async function courseTitles(o: ReminderOptions): Promise<Map<string, string>> {
  try {
    return new Map((await o.licensing.pools.list(BACKGROUND)).map((p) => [p.id, p.course.title]));
  } catch (error) {
    o.logger.warn('learner reminders: could not read the pools; courses named by id', { error: String(error) });
    return new Map();
  }
}

/** The reminders recorded and the DM queued in one transaction; false when another replica sent them. */
async function remind(
  o: ReminderOptions,
  user: string,
  licenses: LicenseProgress[],
  titles: Map<string, string>,
  now: Date,
): Promise<boolean> {
  const notice: LearnerReminderNotice = {
    kind: 'learner-reminder',
    user,
    licenses: licenses.map((p) => myLicenseOf(p, titles)),
  };
  const rows = licenses.map((p) => ({ licenseId: p.licenseId, endDay: endDayOf(p.end), slackUser: user }));
  const key = `learner-reminder:${rows.map((r) => reminderKey(r.licenseId, r.endDay)).join(',')}`.slice(0, 400);
  try {
    return await o.store.transaction(async (tx) => {
      if (!(await tx.recordSent(rows, now.toISOString()))) throw new AlreadySent();
      await o.outbox.enqueue(tx.handle, notice, key);
      return true;
    });
  } catch (error) {
    if (error instanceof AlreadySent) return false;
    throw error;
  }
}

class AlreadySent extends Error {}
