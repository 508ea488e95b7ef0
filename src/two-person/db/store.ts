/**
 * The held mass changes' store (`mass_changes`): every query the feature runs. A decision is one
 * conditional update (`from` state to the next), so two clicks, two admins or two replicas decide a
 * change once; a transaction gives the same store bound to it, with its handle for the outbox.
 */
import type { Kysely } from 'kysely';
import type { Records } from '../../kernel/db/open.js';
import type { Database, MassChangesTable } from '../../kernel/db/schema.js';
import type { ChangeState, MassChange, MassChangeFigures } from '../domain/two-person.js';

export interface MassChangeStore {
  readonly handle: Kysely<Database>;
  transaction<T>(work: (tx: MassChangeStore) => Promise<T>): Promise<T>;
  insert(change: MassChange): Promise<void>;
  get(id: string): Promise<MassChange | undefined>;
  /** Moves the change from `from` to `to` (with who and when); false when it was not in `from` any more. */
  move(id: string, from: ChangeState, to: ChangeState, by: string, at: string): Promise<boolean>;
  /** Records that the approved change's start ran. */
  started(id: string, at: string): Promise<void>;
  /** Pending (or awaiting the sole admin's word) changes whose wait ended at or before `iso`. */
  due(iso: string): Promise<MassChange[]>;
  /** Changes approved at or before `iso` whose start never recorded it ran (the process died between the two). */
  approvedNotStarted(iso: string): Promise<MassChange[]>;
  /** The submitter's changes still waiting (pending or confirm), newest first. */
  waitingOf(submitter: string): Promise<MassChange[]>;
}

function changeOf(row: MassChangesTable): MassChange {
  return {
    id: row.id,
    submitter: row.submitter,
    figures: JSON.parse(row.figures) as MassChangeFigures,
    poolIds: JSON.parse(row.pool_ids) as string[],
    plan: JSON.parse(row.plan) as unknown,
    state: row.state as ChangeState,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.decided_by ? { decidedBy: row.decided_by } : {}),
    ...(row.decided_at ? { decidedAt: row.decided_at } : {}),
  };
}

export function createMassChangeStore(records: Pick<Records, 'db' | 'dialect'>): MassChangeStore {
  const { db, dialect } = records;
  const rows = () => db.selectFrom('mass_changes').selectAll();
  return {
    handle: db,
    transaction: (work) => db.transaction().execute((trx) => work(createMassChangeStore({ db: trx, dialect }))),
    async insert(c) {
      await db
        .insertInto('mass_changes')
        .values({
          id: c.id,
          kind: c.figures.kind,
          submitter: c.submitter,
          pool_ids: JSON.stringify(c.poolIds),
          figures: JSON.stringify(c.figures),
          plan: JSON.stringify(c.plan),
          state: c.state,
          created_at: c.createdAt,
          expires_at: c.expiresAt,
          decided_by: null,
          decided_at: null,
          started_at: null,
        })
        .execute();
    },
    async get(id) {
      const row = await rows().where('id', '=', id).executeTakeFirst();
      return row ? changeOf(row) : undefined;
    },
    async move(id, from, to, by, at) {
      const r = await db
        .updateTable('mass_changes')
        .set({ state: to, decided_by: by, decided_at: at })
        .where('id', '=', id)
        .where('state', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async started(id, at) {
      await db
        .updateTable('mass_changes')
        .set({ state: 'started', started_at: at })
        .where('id', '=', id)
        .where('state', '=', 'approved')
        .execute();
    },
    async due(iso) {
      const found = await rows().where('state', 'in', ['pending', 'confirm']).where('expires_at', '<=', iso).execute();
      return found.map(changeOf);
    },
    async approvedNotStarted(iso) {
      return (await rows().where('state', '=', 'approved').where('decided_at', '<=', iso).execute()).map(changeOf);
    },
    async waitingOf(submitter) {
      const found = await rows()
        .where('submitter', '=', submitter)
        .where('state', 'in', ['pending', 'confirm'])
        .orderBy('created_at', 'desc')
        .execute();
      return found.map(changeOf);
    },
  };
}
