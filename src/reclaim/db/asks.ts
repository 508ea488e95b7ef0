/**
 * The asks' rows (docs/reclaim.md): `reclaim_asks`, one per holder asked in a round, with where the
 * answer stands. Every change of state is a conditional update, so that two processes (a click and the
 * deadline, two replicas) never both take the same step.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../../kernel/db/migrations/index.js';
import type { Database, ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import type { AskState } from '../domain/reclaim.js';

/** The states of an ask still waiting for its outcome. */
const OPEN_STATES: AskState[] = ['asked', 'releasing', 'expiring'];

export interface AskChange {
  state: AskState;
  answered_at?: string;
  detail?: string;
}

export interface AskRecords {
  ask(askId: string): Promise<ReclaimAskRow | undefined>;
  insertAsk(row: ReclaimAskRow): Promise<void>;
  /** A round's asks, each in any state (`states` given: only those, oldest first). */
  asksOf(roundId: string, states?: readonly AskState[]): Promise<ReclaimAskRow[]>;
  /** How many asks of each round are in each state. */
  askCounts(roundIds: readonly string[]): Promise<{ round_id: string; state: string; n: number }[]>;
  /** The licenses whose holder chose Keep since `since`. */
  keptSince(since: string): Promise<Set<string>>;
  /** The licenses asked about in a round still open, and not answered yet. */
  askedInOpenRounds(): Promise<Set<string>>;
  /** The licenses a round released. */
  releasedLicenses(): Promise<Set<string>>;
  /**
   * Whether another round's ask about the same license was answered first: released (or being
   * released), or kept since this ask's round began.
   */
  supersededBy(ask: ReclaimAskRow, round: ReclaimRoundRow): Promise<'released' | 'kept' | undefined>;
  /** Locks the license's asks until the transaction ends (PostgreSQL; SQLite's writer is one already). */
  lockLicense(licenseId: string): Promise<void>;
  /** Sets an ask's state (only from one of `from` when given); whether it changed. */
  moveAsk(askId: string, change: AskChange, from?: readonly AskState[]): Promise<boolean>;
}

const licenses = (rows: { license_id: string }[]) => new Set(rows.map((r) => r.license_id));

export function askRecords(db: Kysely<Database>, dialect: Dialect): AskRecords {
  return {
    ask: (askId) => db.selectFrom('reclaim_asks').selectAll().where('id', '=', askId).executeTakeFirst(),

    async insertAsk(row) {
      await db.insertInto('reclaim_asks').values(row).execute();
    },

    asksOf(roundId, states) {
      const q = db.selectFrom('reclaim_asks').selectAll().where('round_id', '=', roundId);
      return states ? q.where('state', 'in', states).orderBy('id').execute() : q.execute();
    },

    async askCounts(roundIds) {
      const rows = await db
        .selectFrom('reclaim_asks')
        .select(['round_id', 'state', (eb) => eb.fn.countAll().as('n')])
        .where('round_id', 'in', roundIds)
        .groupBy(['round_id', 'state'])
        .execute();
      return rows.map((r) => ({ round_id: r.round_id, state: r.state, n: Number(r.n) }));
    },

    keptSince: async (since) =>
      licenses(
        await db
          .selectFrom('reclaim_asks')
          .select('license_id')
          .where('state', '=', 'kept')
          .where('answered_at', '>=', since)
          .execute(),
      ),

    askedInOpenRounds: async () =>
      licenses(
        await db
          .selectFrom('reclaim_asks')
          .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
          .select('reclaim_asks.license_id')
          .where('reclaim_rounds.state', '=', 'open')
          .where('reclaim_asks.state', 'in', OPEN_STATES)
          .execute(),
      ),

    releasedLicenses: async () =>
      licenses(await db.selectFrom('reclaim_asks').select('license_id').where('state', '=', 'released').execute()),

    async supersededBy(ask, round) {
      const others = await db
        .selectFrom('reclaim_asks')
        .select('state')
        .where('license_id', '=', ask.license_id)
        .where('id', '<>', ask.id)
        .where((eb) =>
          eb.or([
            eb('state', 'in', ['releasing', 'expiring', 'released']),
            eb.and([eb('state', '=', 'kept'), eb('answered_at', '>=', round.created_at)]),
          ]),
        )
        .execute();
      if (others.length === 0) return undefined;
      return others.some((o) => o.state !== 'kept') ? 'released' : 'kept';
    },

    async lockLicense(licenseId) {
      if (dialect !== 'postgres') return;
      await db
        .selectFrom('reclaim_asks')
        .select('id')
        .where('license_id', '=', licenseId)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async moveAsk(askId, change, from) {
      let q = db.updateTable('reclaim_asks').set(change).where('id', '=', askId);
      if (from) q = q.where('state', 'in', from);
      return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
    },
  };
}
