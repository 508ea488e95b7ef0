/**
 * The one way License Desk makes exactly one replica run a job (docs/records.md, "Job leases"): a row
 * per job in `job_leases`, taken by a conditional write that succeeds only when nobody holds the row
 * or its holder's lease has run out, renewed while the run lasts, deleted after. A replica that dies
 * holding it stops renewing, and the lease runs out within its length: another replica then takes
 * the job over. It lives in the database every replica already shares, so Redis being down stops no
 * job (Redis keeps only the rate budget, the repeat guard and caches).
 */
import type { Records } from '../../db/open.js';

export interface JobLease {
  /** Takes `name`'s lease for `ms`: false when another holder's lease has not run out. */
  take(name: string, ms: number): Promise<boolean>;
  /** Holds it `ms` more from now: false when it is no longer this holder's. */
  renew(name: string, ms: number): Promise<boolean>;
  /** Lets go of it (only while this holder has it). */
  release(name: string): Promise<void>;
  /** Who holds `name` now (its lease not run out), or undefined. */
  holder(name: string): Promise<{ holder: string; until: string } | undefined>;
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
    async take(name, ms) {
      const stamp = at();
      const result = await records.db
        .insertInto('job_leases')
        .values({ name, holder: me, until: at(ms) })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), until: eb.ref('excluded.until') }))
            .where((eb) => eb.or([eb('job_leases.until', '<=', stamp), eb('job_leases.holder', '=', me)])),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async renew(name, ms) {
      const result = await records.db
        .updateTable('job_leases')
        .set({ until: at(ms) })
        .where('name', '=', name)
        .where('holder', '=', me)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release(name) {
      await records.db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', me).execute();
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
  };
}
