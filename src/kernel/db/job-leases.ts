/**
 * The rows of `job_leases` (docs/records.md, "Job leases"): the one lease mechanism, taken, renewed
 * and let go by conditional writes. Its face for jobs is services/jobs/lease.ts; it lives with the
 * records so a feature's store (a bulk job's row writes) can check it in its own transaction.
 */
import type { Kysely } from 'kysely';
import type { Records } from './open.js';
import type { Database } from './schema.js';

/**
 * Where a lease's write goes: the records (default), or a transaction the caller has open, so the
 * lease moves together with what it guards (a bulk job's row writes).
 */
export type LeaseDb = Kysely<Database>;

export interface JobLease {
  /**
   * Takes `name`'s lease for `ms`: false when another holder's lease has not run out. `force` takes
   * it whoever holds it (one process on SQLite: a lease found at start is a previous process's).
   */
  take(name: string, ms: number, opts?: { force?: boolean; in?: LeaseDb }): Promise<boolean>;
  /** Holds it `ms` more from now: false when it is no longer this holder's. */
  renew(name: string, ms: number, inDb?: LeaseDb): Promise<boolean>;
  /** Lets go of it (only while this holder has it). */
  release(name: string, inDb?: LeaseDb): Promise<void>;
  /** Who holds `name` now (its lease not run out), or undefined. */
  holder(name: string): Promise<{ holder: string; until: string } | undefined>;
  /**
   * In the caller's transaction: whether this holder still has `name`'s row (run out or not, as long
   * as nobody took it over), the row locked until the transaction ends on PostgreSQL (SQLite has one
   * writer). A write checked this way cannot land after another holder took the lease.
   */
  holds(trx: LeaseDb, name: string): Promise<boolean>;
}

export interface DbLeaseOptions {
  /** Who takes the leases; default this process (records.instance). */
  holder?: string;
  now?: () => Date;
}

export function createDbLease(records: Records, opts: DbLeaseOptions = {}): JobLease {
  const me = opts.holder ?? records.instance;
  const now = opts.now ?? (() => new Date());
  const at = (ms = 0) => new Date(now().getTime() + ms).toISOString();
  return {
    async take(name, ms, { force = false, in: db = records.db } = {}) {
      const stamp = at();
      const result = await db
        .insertInto('job_leases')
        .values({ name, holder: me, until: at(ms) })
        .onConflict((oc) => {
          const update = oc
            .column('name')
            .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), until: eb.ref('excluded.until') }));
          return force
            ? update
            : update.where((eb) => eb.or([eb('job_leases.until', '<=', stamp), eb('job_leases.holder', '=', me)]));
        })
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async renew(name, ms, db = records.db) {
      const result = await db
        .updateTable('job_leases')
        .set({ until: at(ms) })
        .where('name', '=', name)
        .where('holder', '=', me)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release(name, db = records.db) {
      await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', me).execute();
    },
    async holder(name) {
      const row = await records.db
        .selectFrom('job_leases')
        .select(['holder', 'until'])
        .where('name', '=', name)
        .where('until', '>', at())
        .executeTakeFirst();
      return row ? { holder: row.holder, until: row.until } : undefined;
    },
    async holds(trx, name) {
      let q = trx.selectFrom('job_leases').select('holder').where('name', '=', name);
      if (records.dialect === 'postgres') q = q.forUpdate();
      return (await q.executeTakeFirst())?.holder === me;
    },
  };
}
