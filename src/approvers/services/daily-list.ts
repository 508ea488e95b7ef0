/**
 * The daily "waiting for you" list (docs/roles-and-approvals.md, "Escalation and the daily list"): for
 * each approver who chose it, once a day from APPROVER_DAILY_LIST_TIME (in REQUEST_TIMEZONE), one DM
 * listing the undecided requests whose card would go to them now. The day's row and the DM are
 * written in one transaction (the row's primary key refuses a second), so it goes out once a day,
 * whatever the replicas and restarts. Nothing waits for them: no DM.
 */
import { localClock, minutesOf } from '../../kernel/services/jobs/daily.js';
import type { ApproverNotice, Route, WaitingItem } from '../domain/delegation.js';
import type { DelegationDeps } from './delegations.js';

export interface DailyListDeps extends DelegationDeps {
  /** APPROVER_DAILY_LIST_TIME (HH:MM) in `timeZone`. */
  time: string;
  timeZone: string;
  /** The requests waiting for a decision, oldest first. */
  waiting: () => Promise<WaitingItem[]>;
  /** Who gets this pool's card now (the Slack layer asks the roles). */
  routeOf: (poolId: string, requester: string) => Promise<Route>;
}

export async function sendDailyLists(x: DailyListDeps): Promise<{ sent: number }> {
  const now = x.now();
  const { day, minutes } = localClock(now, x.timeZone);
  if (minutes < minutesOf(x.time)) return { sent: 0 };
  const listers = new Set(await x.store.dailyListers());
  if (listers.size === 0) return { sent: 0 };
  const byUser = new Map<string, WaitingItem[]>();
  for (const item of await x.waiting()) {
    for (const user of (await x.routeOf(item.poolId, item.requester)).daily) {
      if (listers.has(user)) byUser.set(user, [...(byUser.get(user) ?? []), item]);
    }
  }
  let sent = 0;
  for (const [user, items] of byUser) {
    const notice: ApproverNotice = { kind: 'approver-daily-list', user, day, items };
    const mine = await x.store.transaction(async (tx) => {
      if (!(await tx.recordList(user, day, now.toISOString()))) return false;
      await x.outbox.enqueue(tx.handle, notice, `approver-daily-list:${user}:${day}`);
      return true;
    });
    if (mine) sent += 1;
  }
  if (sent > 0) x.outbox.kick();
  return { sent };
}
