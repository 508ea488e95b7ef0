/**
 * The schema's history, oldest first (schema.ts is where it ends). Kept in code, not in files read at
 * run time, so the build carries them. Each has its way back (`down`), tested both ways. Run at start
 * by open.ts through Kysely's migrator, which holds a lock on PostgreSQL so that replicas starting
 * together run each migration once.
 *
 * Never edit a migration that has shipped: add the next one.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Column types that differ between the two databases. */
function types(dialect: Dialect) {
  return {
    serial: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
    real: dialect === 'postgres' ? ('double precision' as const) : ('real' as const),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was then, not schema.ts.
type AnyDb = Kysely<any>;

function serialKey(dialect: Dialect) {
  return (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
}

export function migrations(dialect: Dialect): Record<string, Migration> {
  const t = types(dialect);
  return {
    '0001_requests': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('requests')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('requester', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('waitlist_rank', t.real)
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('requests_requester').on('requests').columns(['requester', 'created_at']).execute();
        await db.schema.createIndex('requests_status').on('requests').columns(['status', 'created_at']).execute();
        await db.schema.createIndex('requests_waitlist').on('requests').columns(['pool_id', 'waitlist_rank']).execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('requests').execute();
      },
    },
    '0002_intents_outbox': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('instances')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('seen_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('intents')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('owner', 'text', (c) => c.notNull())
          .addColumn('subject', 'text')
          .addColumn('pool_id', 'text')
          .addColumn('instance', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('settled_at', 'text')
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text')
          .execute();
        await db.schema.createIndex('intents_state').on('intents').columns(['state', 'created_at']).execute();
        await db.schema.createIndex('intents_subject').on('intents').columns(['subject']).execute();
        await db.schema
          .createTable('outbox')
          .addColumn('id', t.serial, serialKey(dialect))
          .addColumn('key', 'text', (c) => c.unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('due_at', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('body', 'text', (c) => c.notNull())
          .addColumn('sent_at', 'text')
          .addColumn('result', 'text')
          .execute();
        await db.schema.createIndex('outbox_due').on('outbox').columns(['state', 'due_at']).execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('outbox').execute();
        await db.schema.dropTable('intents').execute();
        await db.schema.dropTable('instances').execute();
      },
    },
    '0003_audit': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('audit')
          .addColumn('id', t.serial, serialKey(dialect))
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('actor', 'text', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text')
          .addColumn('license_id', 'text')
          .addColumn('student_email', 'text')
          .addColumn('requester', 'text')
          .addColumn('body', 'text', (c) => c.notNull())
          .execute();
        // Newest first (App Home's recent changes) and deletion by age (AUDIT_RETENTION_DAYS).
        await db.schema.createIndex('audit_at').on('audit').columns(['at', 'id']).execute();
        // The history of one license, pool or student (student_email is kept lower-case).
        await db.schema.createIndex('audit_license').on('audit').columns(['license_id', 'id']).execute();
        await db.schema.createIndex('audit_pool').on('audit').columns(['pool_id', 'id']).execute();
        await db.schema.createIndex('audit_student').on('audit').columns(['student_email', 'id']).execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('audit').execute();
      },
    },
    '0004_bulk_jobs': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('bulk_jobs')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('requester', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('finished_at', 'text')
          .addColumn('lease_owner', 'text')
          .addColumn('lease_until', 'text')
          .addColumn('body', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('bulk_jobs_state').on('bulk_jobs').columns(['state']).execute();
        await db.schema
          .createTable('bulk_rows')
          .addColumn('job_id', 'text', (c) => c.notNull().references('bulk_jobs.id').onDelete('cascade'))
          .addColumn('line', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('bulk_rows_pk', ['job_id', 'line'])
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('bulk_rows').execute();
        await db.schema.dropTable('bulk_jobs').execute();
      },
    },
    '0005_state': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('state')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('state').execute();
      },
    },
    '0006_progress': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('license_progress')
          .addColumn('license_id', 'text', (c) => c.primaryKey())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('course_id', 'text', (c) => c.notNull())
          .addColumn('student_id', 'text', (c) => c.notNull())
          .addColumn('student_email', 'text', (c) => c.notNull())
          .addColumn('student_name', 'text', (c) => c.notNull())
          .addColumn('progress', t.real, (c) => c.notNull())
          .addColumn('completed', 'text')
          .addColumn('license_start', 'text', (c) => c.notNull())
          .addColumn('license_end', 'text', (c) => c.notNull())
          .addColumn('active', 'integer', (c) => c.notNull())
          .addColumn('first_seen_at', 'text', (c) => c.notNull())
          .addColumn('changed_at', 'text', (c) => c.notNull())
          .addColumn('seen_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('license_progress_pool')
          .on('license_progress')
          .columns(['pool_id', 'active'])
          .execute();
        await db.schema
          .createIndex('license_progress_email')
          .on('license_progress')
          .columns(['student_email'])
          .execute();
        await db.schema
          .createTable('progress_history')
          .addColumn('id', t.serial, serialKey(dialect))
          .addColumn('license_id', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('student_email', 'text', (c) => c.notNull())
          .addColumn('progress', t.real, (c) => c.notNull())
          .addColumn('completed', 'text')
          .addColumn('at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('progress_history_license')
          .on('progress_history')
          .columns(['license_id', 'at'])
          .execute();
        await db.schema.createIndex('progress_history_at').on('progress_history').columns(['at']).execute();
        await db.schema
          .createTable('pool_usage')
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('licenses', 'integer', (c) => c.notNull())
          .addColumn('assigned', 'integer', (c) => c.notNull())
          .addColumn('available', 'integer', (c) => c.notNull())
          .addColumn('transferable', 'integer', (c) => c.notNull())
          .addColumn('pool_end', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('pool_usage_pk', ['pool_id', 'day'])
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('pool_usage').execute();
        await db.schema.dropTable('progress_history').execute();
        await db.schema.dropTable('license_progress').execute();
      },
    },
    '0007_reclaim': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('reclaim_rounds')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('admin', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text')
          .addColumn('policy', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('remind_at', 'text', (c) => c.notNull())
          .addColumn('deadline_at', 'text', (c) => c.notNull())
          .addColumn('not_in_slack', 'integer', (c) => c.notNull())
          .addColumn('message_channel', 'text')
          .addColumn('message_ts', 'text')
          .addColumn('claimed_until', 'text')
          .addColumn('closed_at', 'text')
          .execute();
        await db.schema
          .createIndex('reclaim_rounds_state')
          .on('reclaim_rounds')
          .columns(['state', 'deadline_at'])
          .execute();
        await db.schema
          .createTable('reclaim_asks')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('round_id', 'text', (c) => c.notNull())
          .addColumn('license_id', 'text', (c) => c.notNull())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('course_title', 'text', (c) => c.notNull())
          .addColumn('slack_user', 'text', (c) => c.notNull())
          .addColumn('student_email', 'text', (c) => c.notNull())
          .addColumn('student_name', 'text', (c) => c.notNull())
          .addColumn('standing', 'text', (c) => c.notNull())
          .addColumn('progress', t.real, (c) => c.notNull())
          .addColumn('since', 'text', (c) => c.notNull())
          .addColumn('since_watched', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('answered_at', 'text')
          .addColumn('reminded_at', 'text')
          .addColumn('detail', 'text')
          .execute();
        await db.schema.createIndex('reclaim_asks_round').on('reclaim_asks').columns(['round_id']).execute();
        await db.schema
          .createIndex('reclaim_asks_license')
          .on('reclaim_asks')
          .columns(['license_id', 'state'])
          .execute();
        await db.schema
          .createIndex('reclaim_asks_user')
          .on('reclaim_asks')
          .columns(['slack_user', 'reminded_at'])
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('reclaim_asks').execute();
        await db.schema.dropTable('reclaim_rounds').execute();
      },
    },
    '0009_audit_search': {
      // `/licenses history @user`: the entries a person made (actor) or that are about their course
      // request (requester), newest first. The license, pool and student e-mail have theirs (0003_audit).
      async up(db: AnyDb) {
        await db.schema.createIndex('audit_actor').on('audit').columns(['actor', 'id']).execute();
        await db.schema.createIndex('audit_requester').on('audit').columns(['requester', 'id']).execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropIndex('audit_requester').execute();
        await db.schema.dropIndex('audit_actor').execute();
      },
    },
    '0010_progress_returns': {
      // The automatic return of finished seats (docs/progress.md): the claim of each return, made
      // before its DELETE; found by state and claim for the read-back after a kill.
      async up(db: AnyDb) {
        await db.schema
          .createTable('progress_returns')
          .addColumn('license_id', 'text', (c) => c.primaryKey())
          .addColumn('pool_id', 'text', (c) => c.notNull())
          .addColumn('student_email', 'text', (c) => c.notNull())
          .addColumn('student_name', 'text', (c) => c.notNull())
          .addColumn('completed_on', 'text', (c) => c.notNull())
          .addColumn('pass_started_at', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('claimed_at', 'text', (c) => c.notNull())
          .addColumn('claimed_until', 'text', (c) => c.notNull())
          .addColumn('course_title', 'text')
          .addColumn('done_at', 'text')
          .addColumn('detail', 'text')
          .execute();
        await db.schema
          .createIndex('progress_returns_state')
          .on('progress_returns')
          .columns(['state', 'claimed_until'])
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('progress_returns').execute();
      },
    },
    '0011_progress_standing': {
      // The digest and App Home count the active holders per pool by standing and progress
      // (progress-store's standingCounts): every column that count reads, so it is read from this index
      // alone instead of from every row (docs/digest.md, Figures). The daily pass's "seen again" update
      // touches seen_at only, which is not in it.
      async up(db: AnyDb) {
        await db.schema
          .createIndex('license_progress_standing')
          .on('license_progress')
          .columns(['active', 'pool_id', 'progress', 'completed', 'license_start', 'changed_at'])
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropIndex('license_progress_standing').execute();
      },
    },
    '0012_reclaim_open_pools': {
      // One open reclaim round per pool (docs/reclaim.md): a round claims each pool it asks in by a row
      // here, inserted in the transaction that writes the round (the primary key refuses a second claim,
      // whichever replica makes it), deleted when the round closes. Rounds still open are claimed here,
      // the oldest first (two open rounds of one pool, from before this table, keep the oldest's claim).
      async up(db: AnyDb) {
        await db.schema
          .createTable('reclaim_open_pools')
          .addColumn('pool_id', 'text', (c) => c.primaryKey())
          .addColumn('round_id', 'text', (c) => c.notNull())
          .execute();
        const open = await db
          .selectFrom('reclaim_asks')
          .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
          .select(['reclaim_asks.pool_id', 'reclaim_rounds.id', 'reclaim_rounds.created_at'])
          .where('reclaim_rounds.state', '=', 'open')
          .orderBy('reclaim_rounds.created_at')
          .orderBy('reclaim_rounds.id')
          .execute();
        for (const row of open as { pool_id: string; id: string }[])
          await db
            .insertInto('reclaim_open_pools')
            .values({ pool_id: row.pool_id, round_id: row.id })
            .onConflict((oc) => oc.column('pool_id').doNothing())
            .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('reclaim_open_pools').execute();
      },
    },
    '0013_job_leases': {
      // One replica runs a job (docs/records.md, "Job leases"): the row names the holder and until when
      // (ISO, so it compares as text on both databases); taken by a conditional write, renewed, deleted.
      async up(db: AnyDb) {
        await db.schema
          .createTable('job_leases')
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('holder', 'text', (c) => c.notNull())
          .addColumn('until', 'text', (c) => c.notNull())
          .execute();
      },
      async down(db: AnyDb) {
        await db.schema.dropTable('job_leases').execute();
      },
    },
  };
}

/** The names of the migrations, in order: what a fully migrated database has run. */
export const MIGRATION_NAMES = Object.keys(migrations('sqlite'));
