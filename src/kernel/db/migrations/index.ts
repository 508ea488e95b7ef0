/**
 * The schema's history, oldest first (../schema.ts is where it ends): one file a migration, named as
 * the migration is recorded in every database that ran it (Kysely's `kysely_migration` table), listed
 * here in order. Kept in code, not in files read at run time, so the build carries them. Each has its
 * way back (`down`), tested both ways. Run at start by ../open.ts through Kysely's migrator, which holds
 * a lock on PostgreSQL so that replicas starting together run each migration once.
 *
 * Never rename or renumber a migration that has shipped, nor change the SQL it sends (the migrations
 * test keeps it): add the next one (docs/records.md, "Migrations"). There is no 0008: no branch ever
 * shipped one.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_requests.js';
import * as m0002 from './0002_intents_outbox.js';
import * as m0003 from './0003_audit.js';
import * as m0004 from './0004_bulk_jobs.js';
import * as m0005 from './0005_state.js';
import * as m0006 from './0006_progress.js';
import * as m0007 from './0007_reclaim.js';
import * as m0009 from './0009_audit_search.js';
import * as m0010 from './0010_progress_returns.js';
import * as m0011 from './0011_progress_standing.js';
import * as m0012 from './0012_reclaim_open_pools.js';
import * as m0013 from './0013_job_leases.js';
import * as m0014 from './0014_learners.js';
import * as m0015 from './0015_extension_requests.js';
import * as m0016 from './0016_leavers.js';
import * as m0017 from './0017_waitlist_offers.js';
import * as m0018 from './0018_role_grants.js';
import * as m0019 from './0019_approvers.js';
import * as m0020 from './0020_two_person.js';
import * as m0021 from './0021_slackbot_confirmations.js';
import type { AnyDb, Dialect, Step } from './columns.js';

export type { Dialect };

/** Every migration by the name databases record it under, in the order they run. */
const STEPS: readonly (readonly [name: string, step: Step])[] = [
  ['0001_requests', m0001],
  ['0002_intents_outbox', m0002],
  ['0003_audit', m0003],
  ['0004_bulk_jobs', m0004],
  ['0005_state', m0005],
  ['0006_progress', m0006],
  ['0007_reclaim', m0007],
  ['0009_audit_search', m0009],
  ['0010_progress_returns', m0010],
  ['0011_progress_standing', m0011],
  ['0012_reclaim_open_pools', m0012],
  ['0013_job_leases', m0013],
  ['0014_learners', m0014],
  ['0015_extension_requests', m0015],
  ['0016_leavers', m0016],
  ['0017_waitlist_offers', m0017],
  ['0018_role_grants', m0018],
  ['0019_approvers', m0019],
  ['0020_two_person', m0020],
  ['0021_slackbot_confirmations', m0021],
];

/** The migrations as Kysely's migrator takes them, for one engine. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(
    STEPS.map(([name, step]) => [
      name,
      { up: (db: AnyDb) => step.up(db, dialect), down: (db: AnyDb) => step.down(db) },
    ]),
  );
}

/** The names of the migrations, in order: what a fully migrated database has run. */
export const MIGRATION_NAMES: readonly string[] = STEPS.map(([name]) => name);
