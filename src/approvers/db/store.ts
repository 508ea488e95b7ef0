/**
 * The approvers' store (docs/roles-and-approvals.md): every query the feature runs, on SQLite and
 * PostgreSQL. Delegations, each approver's choice of the daily list, and the lists sent (one per
 * approver and day). A transaction gives the same store bound to it, with its handle for the outbox.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import type { ApproverDelegationsTable, Database } from '../../kernel/db/schema.js';
import type { Delegation, DelegationState } from '../domain/delegation.js';

export interface ApproverStore {
  readonly handle: Kysely<Database>;
  transaction<T>(work: (tx: ApproverStore) => Promise<T>): Promise<T>;
  add(d: Delegation): Promise<void>;
  get(id: string): Promise<Delegation | undefined>;
  /** The approver's delegations waiting or accepted whose last day is `today` or later, newest first. */
  liveOf(approver: string, today: string): Promise<Delegation[]>;
  /** The accepted delegations of these approvers whose days include `today`. */
  inForceFrom(approvers: readonly string[], today: string): Promise<Delegation[]>;
  /** The accepted delegations to this delegate whose days include `today`. */
  inForceTo(delegate: string, today: string): Promise<Delegation[]>;
  /** Moves it from one of `from` to `to`; false when it was in none of them (another click won). */
  move(id: string, from: readonly DelegationState[], to: DelegationState, by: string, at: string): Promise<boolean>;
  dailyList(user: string): Promise<boolean>;
  setDailyList(user: string, on: boolean, at: string): Promise<void>;
  /** Everyone who chose the daily list. */
  dailyListers(): Promise<string[]>;
  /** Records the day's list of `user`; false when it was sent already that day. */
  recordList(user: string, day: string, at: string): Promise<boolean>;
}

function delegationOf(r: Selectable<ApproverDelegationsTable>): Delegation {
  return {
    id: r.id,
    approver: r.approver,
    delegate: r.delegate,
    fromDay: r.from_day,
    untilDay: r.until_day,
    state: r.state as DelegationState,
    createdAt: r.created_at,
    ...(r.decided_by ? { decidedBy: r.decided_by } : {}),
    ...(r.ended_at ? { endedAt: r.ended_at } : {}),
  };
}

export function createApproverStore(records: Pick<Records, 'db' | 'dialect'>): ApproverStore {
  const { db, dialect } = records;
  const delegations = () => db.selectFrom('approver_delegations').selectAll();
  return {
    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createApproverStore({ db: trx, dialect }))),

    async add(d) {
      await db
        .insertInto('approver_delegations')
        .values({
          id: d.id,
          approver: d.approver,
          delegate: d.delegate,
          from_day: d.fromDay,
          until_day: d.untilDay,
          state: d.state,
          created_at: d.createdAt,
          decided_by: d.decidedBy ?? null,
          ended_at: null,
        })
        .execute();
    },

    async get(id) {
      const row = await delegations().where('id', '=', id).executeTakeFirst();
      return row ? delegationOf(row) : undefined;
    },

    async liveOf(approver, today) {
      const rows = await delegations()
        .where('approver', '=', approver)
        .where('state', 'in', ['waiting', 'active'])
        .where('until_day', '>=', today)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(delegationOf);
    },

    async inForceFrom(approvers, today) {
      if (approvers.length === 0) return [];
      const rows = await delegations()
        .where('approver', 'in', [...approvers])
        .where('state', '=', 'active')
        .where('from_day', '<=', today)
        .where('until_day', '>=', today)
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(delegationOf);
    },

    async inForceTo(delegate, today) {
      const rows = await delegations()
        .where('delegate', '=', delegate)
        .where('state', '=', 'active')
        .where('from_day', '<=', today)
        .where('until_day', '>=', today)
        .execute();
      return rows.map(delegationOf);
    },

    async move(id, from, to, by, at) {
      const r = await db
        .updateTable('approver_delegations')
        .set(to === 'ended' ? { state: to, ended_at: at } : { state: to, decided_by: by })
        .where('id', '=', id)
        .where('state', 'in', [...from])
        .executeTakeFirst();
      return Number(r.numUpdatedRows ?? 0) === 1;
    },

    async dailyList(user) {
      const row = await db
        .selectFrom('approver_prefs')
        .select('daily_list')
        .where('slack_user', '=', user)
        .executeTakeFirst();
      return Number(row?.daily_list ?? 0) === 1;
    },

    async setDailyList(user, on, at) {
      const daily_list = on ? 1 : 0;
      await db
        .insertInto('approver_prefs')
        .values({ slack_user: user, daily_list, changed_at: at })
        .onConflict((oc) => oc.column('slack_user').doUpdateSet({ daily_list, changed_at: at }))
        .execute();
    },

    async dailyListers() {
      const rows = await db.selectFrom('approver_prefs').select('slack_user').where('daily_list', '=', 1).execute();
      return rows.map((r) => r.slack_user);
    },

    async recordList(user, day, at) {
      const r = await db
        .insertInto('approver_daily_lists')
        .values({ slack_user: user, day, sent_at: at })
        .onConflict((oc) => oc.columns(['slack_user', 'day']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
