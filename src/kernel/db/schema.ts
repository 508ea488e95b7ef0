/**
 * The tables License Desk keeps its own records in (docs/records.md), as Kysely sees them. One schema
 * for SQLite and PostgreSQL: times are ISO-8601 text (they sort as they read), nested values are JSON
 * text, ids are text except the autoincremented ones. Migrations (migrations/) create exactly this.
 */
import type { Generated, Insertable, Selectable } from 'kysely';

/** Course requests. A place in a pool's waitlist is part of the request (`waitlist_rank`), not a second list. */
export interface RequestsTable {
  id: string;
  requester: string;
  pool_id: string;
  status: string;
  created_at: string;
  /** Set while the request holds a place in the waitlist of `pool_id`: lower goes first. */
  waitlist_rank: number | null;
  updated_at: string;
  /** The whole request (domain/requests.ts `CourseRequest`) as JSON. */
  body: string;
}
export type RequestRow = Selectable<RequestsTable>;

/** Extension requests: a learner asks for a later end date of a license they hold (src/extensions/). */
export interface ExtensionRequestsTable {
  id: string;
  requester: string;
  license_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  /** The whole request (extensions/domain/extensions.ts `ExtensionRequest`) as JSON. */
  body: string;
}
export type ExtensionRequestRow = Selectable<ExtensionRequestsTable>;

/**
 * A licensing write recorded before it is sent (docs/records.md): `open` until its outcome is known;
 * one left open by a process that died is settled by reading back, never resent blind.
 */
export interface IntentsTable {
  id: string;
  /** 'assign' | 'recycle' | 'end-date' | 'revoke' | 'bulk-row' | 'request-assign' … */
  kind: string;
  /** Slack user id of the person the write is for (the admin, or the approver of a request). */
  owner: string;
  /** What it belongs to: a request id, a bulk job id, a license id. */
  subject: string | null;
  pool_id: string | null;
  /** The process that sent it (instances.id). */
  instance: string;
  state: string;
  created_at: string;
  settled_at: string | null;
  /** What was to be sent, as JSON. */
  body: string;
  /** How it ended, as JSON, once known. */
  outcome: string | null;
}
export type NewIntent = Insertable<IntentsTable>;
export type IntentRow = Selectable<IntentsTable>;

/** Messages to people, written in the same transaction as the change they tell of; sent once Slack accepts them. */
export interface OutboxTable {
  id: Generated<number>;
  /** Unique when set: a message that must exist once (e.g. `request:r1:assigned:dm`). */
  key: string | null;
  created_at: string;
  /** When the next try is due. */
  due_at: string;
  /** 'pending' | 'sent' | 'dropped' */
  state: string;
  attempts: number;
  /** What to send, as JSON. */
  body: string;
  sent_at: string | null;
  /** What Slack answered that later steps need (a message's channel and ts), as JSON. */
  result: string | null;
}
export type OutboxRow = Selectable<OutboxTable>;

/** The audit trail, one for every process, append-only (deleted only by age: AUDIT_RETENTION_DAYS). */
export interface AuditTable {
  id: Generated<number>;
  /** UTC ISO time of the entry: what newest-first reads and the retention go by. */
  at: string;
  actor: string;
  action: string;
  outcome: string;
  pool_id: string | null;
  license_id: string | null;
  /** Lower-case; null when the entry has none or only a masked one (imported from an old audit file). */
  student_email: string | null;
  requester: string | null;
  /** The whole entry (domain/audit-entry.ts `AuditEntry`) as JSON. */
  body: string;
}
export type AuditRow = Selectable<AuditTable>;

/**
 * Bulk assignment jobs (docs/records.md, "Bulk jobs"). `lease_*` says which process runs one and until
 * when: set by the process that starts or takes the job, renewed while it runs, cleared when it stops
 * or the job ends; a running job whose lease ran out is taken over by another process.
 */
export interface BulkJobsTable {
  id: string;
  state: string;
  requester: string;
  pool_id: string;
  created_at: string;
  finished_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  /** The job without its rows (domain/bulk-job.ts `BulkJob`), as JSON. */
  body: string;
}

/** One line of a bulk job: 'pending', 'sending' (committed before its write: the write's intent), 'done'. */
export interface BulkRowsTable {
  job_id: string;
  line: number;
  state: string;
  /** The row (domain/bulk-job.ts `JobRow`), as JSON. */
  body: string;
}

/** Small named values: the alert memory, which files were imported, and the like. */
export interface StateTable {
  key: string;
  value: string;
  updated_at: string;
}

/**
 * What License Desk last saw of each license's learning progress (the daily progress pass,
 * docs/progress.md): one row per license, updated on every pass that sees it.
 */
export interface LicenseProgressTable {
  license_id: string;
  pool_id: string;
  course_id: string;
  student_id: string;
  /** Lower-case. */
  student_email: string;
  student_name: string;
  /** Completion percentage, 0 to 100, as last seen. */
  progress: number;
  /** When the course was completed (the licensing service's time), or null. */
  completed: string | null;
  /** The license's start and end (YYYY-MM-DD or ISO, as the service gives them). */
  license_start: string;
  license_end: string;
  /** 1 while the license is active; 0 once a pass saw it inactive or no longer saw it. */
  active: number;
  /** When License Desk first saw this license. */
  first_seen_at: string;
  /** When progress or completion was last seen to change; first_seen_at until one is seen. */
  changed_at: string;
  /** The last pass that saw the license. */
  seen_at: string;
}
export type LicenseProgressRow = Selectable<LicenseProgressTable>;

/** One row per change of a license's progress or completion (and one when it is first seen): never one per day. */
export interface ProgressHistoryTable {
  id: Generated<number>;
  license_id: string;
  pool_id: string;
  student_email: string;
  progress: number;
  completed: string | null;
  /** When the pass saw the new value (UTC ISO). */
  at: string;
}
export type ProgressHistoryRow = Selectable<ProgressHistoryTable>;

/** A pool's seats as seen by a pass, one row per pool and UTC day on which they changed (or were first seen). */
export interface PoolUsageTable {
  pool_id: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  licenses: number;
  assigned: number;
  available: number;
  /** 1 when the pool is transferable. */
  transferable: number;
  /** The pool's end (ISO or YYYY-MM-DD). */
  pool_end: string;
}
export type PoolUsageRow = Selectable<PoolUsageTable>;

/**
 * Reclaim rounds ("still learning?", docs/reclaim.md): an admin asks the holders who stalled or never
 * started whether they keep their seat. One row per round; its asks in `reclaim_asks`.
 */
export interface ReclaimRoundsTable {
  id: string;
  /** Slack user id of the admin who started it (the releases at the deadline are theirs). */
  admin: string;
  /** The pool asked about, or null for every transferable pool. */
  pool_id: string | null;
  /** What happens to an ask unanswered at the deadline: 'release' | 'list'. */
  policy: string;
  /** 'open' until the deadline's work is done, then 'closed'. */
  state: string;
  created_at: string;
  remind_at: string;
  deadline_at: string;
  /** Holders who would have been asked but have no Slack account for their e-mail. */
  not_in_slack: number;
  /** The admin's round message (updated in place). */
  message_channel: string | null;
  message_ts: string | null;
  /** Who holds the deadline's work until when (a claim by conditional update; replicas, kills). */
  claimed_until: string | null;
  closed_at: string | null;
}
export type ReclaimRoundRow = Selectable<ReclaimRoundsTable>;

/** One holder asked in a round. */
export interface ReclaimAsksTable {
  id: string;
  round_id: string;
  license_id: string;
  pool_id: string;
  course_title: string;
  /** The holder's Slack user id (users.lookupByEmail). */
  slack_user: string;
  /** Lower-case. */
  student_email: string;
  student_name: string;
  /** 'not-started' | 'stalled' when asked. */
  standing: string;
  progress: number;
  /** Since when they stand there; since_watched 0: only since License Desk watched ("at least"). */
  since: string;
  since_watched: number;
  /** 'asked' | 'releasing' | 'expiring' | 'kept' | 'released' | 'unanswered' | 'failed' */
  state: string;
  answered_at: string | null;
  reminded_at: string | null;
  /** Why a release failed, when it did. */
  detail: string | null;
}
export type ReclaimAskRow = Selectable<ReclaimAsksTable>;

/**
 * One open reclaim round per pool: a round claims each pool it asks in (the primary key refuses a
 * second claim), in the transaction that writes it; the claims go when it closes.
 */
export interface ReclaimOpenPoolsTable {
  pool_id: string;
  round_id: string;
}

/**
 * A completed license returned automatically after a progress pass (docs/progress.md), one row per
 * license ever claimed: the claim is made before the DELETE is sent, so no license is returned twice.
 */
export interface ProgressReturnsTable {
  license_id: string;
  pool_id: string;
  /** Lower-case. */
  student_email: string;
  student_name: string;
  /** The day the course was completed (the service's completion date, else the day it was first seen). */
  completed_on: string;
  /** The pass whose end picked it (ISO start of that pass). */
  pass_started_at: string;
  /** 'returning' (claimed, the revoke may be in flight) | 'returned' | 'failed' | 'gone' (no longer held before anything was sent). */
  state: string;
  claimed_at: string;
  /** Whose the claim is until when: a claim left by a killed process runs out and is read back. */
  claimed_until: string;
  course_title: string | null;
  done_at: string | null;
  /** Why a return failed, when it did. */
  detail: string | null;
}
export type ProgressReturnRow = Selectable<ProgressReturnsTable>;

/** The processes that use the database, so that an intent left by one that died is known as such. */
export interface InstancesTable {
  id: string;
  started_at: string;
  seen_at: string;
}

/** Who runs a job that exactly one replica runs, and until when (services/jobs/lease.ts). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  /** ISO time the lease runs out unless renewed. */
  until: string;
}

/** A reminder sent to a learner before a license ends: one per license and end date (docs/learners.md). */
export interface LearnerRemindersTable {
  license_id: string;
  /** The end date it was sent for (YYYY-MM-DD): a new end date may be reminded again. */
  end_day: string;
  slack_user: string;
  sent_at: string;
}

/** A learner's choices: `reminders_off` 1 once they chose "Stop these reminders". */
export interface LearnerPrefsTable {
  slack_user: string;
  reminders_off: number;
  changed_at: string;
}

/** A freed seat offered to the request first in line (docs/leavers-and-offers.md#seats-offered-then-claimed): one live offer per request. */
export interface WaitlistOffersTable {
  id: string;
  pool_id: string;
  request_id: string;
  /** The requester's Slack user id: the only one who may claim or decline. */
  requester: string;
  course_title: string;
  /** 'open' | 'claiming' (the assign may be in flight) | 'claimed' | 'declined' | 'expired' | 'withdrawn'. */
  state: string;
  created_at: string;
  deadline_at: string;
  closed_at: string | null;
  /** The license the claim gave. */
  license_id: string | null;
  /** When the holder was asked whether they still need the seat (not started after OFFER_NOT_STARTED_DAYS). */
  asked_at: string | null;
}
export type WaitlistOfferRow = Selectable<WaitlistOffersTable>;

/** A role an owner gave (docs/roles-and-approvals.md, src/roles/): one row per person or group, role and scope. */
export interface RoleGrantsTable {
  id: string;
  /** A Slack user (U…, W…) or user group (S…). */
  subject: string;
  /** 'admin' | 'viewer'. */
  role: string;
  /** 'all' | 'course' | 'pools'. */
  scope_kind: string;
  /** '' (all), the course id, or the chosen pool ids sorted and comma-separated. */
  scope_ids: string;
  /** The course's title when it was given (its words if the course is gone). */
  course_title: string | null;
  given_by: string;
  given_at: string;
}
export type RoleGrantRow = Selectable<RoleGrantsTable>;
/** An approver's away delegation (docs/roles-and-approvals.md): days are YYYY-MM-DD, both included. */
export interface ApproverDelegationsTable {
  id: string;
  approver: string;
  delegate: string;
  from_day: string;
  until_day: string;
  /** 'waiting' (for an owner's yes), 'active', 'refused' or 'ended'. */
  state: string;
  created_at: string;
  decided_by: string | null;
  ended_at: string | null;
}

/** An approver's choice of one daily "waiting for you" DM instead of a card per request. */
export interface ApproverPrefsTable {
  slack_user: string;
  daily_list: number;
  changed_at: string;
}

/** One daily list sent to one approver on one day. */
export interface ApproverDailyListsTable {
  slack_user: string;
  day: string;
  sent_at: string;
}

export interface Database {
  requests: RequestsTable;
  extension_requests: ExtensionRequestsTable;
  intents: IntentsTable;
  outbox: OutboxTable;
  audit: AuditTable;
  bulk_jobs: BulkJobsTable;
  bulk_rows: BulkRowsTable;
  state: StateTable;
  instances: InstancesTable;
  license_progress: LicenseProgressTable;
  progress_history: ProgressHistoryTable;
  pool_usage: PoolUsageTable;
  reclaim_rounds: ReclaimRoundsTable;
  reclaim_asks: ReclaimAsksTable;
  reclaim_open_pools: ReclaimOpenPoolsTable;
  progress_returns: ProgressReturnsTable;
  job_leases: JobLeasesTable;
  leaver_holds: LeaverHoldsTable;
  leaver_sweeps: LeaverSweepsTable;
  learner_reminders: LearnerRemindersTable;
  learner_prefs: LearnerPrefsTable;
  waitlist_offers: WaitlistOffersTable;
  role_grants: RoleGrantsTable;
  mass_changes: MassChangesTable;
  approver_delegations: ApproverDelegationsTable;
  approver_prefs: ApproverPrefsTable;
  approver_daily_lists: ApproverDailyListsTable;
  slackbot_confirmations: SlackbotConfirmationsTable;
}

/** A Slackbot preview token that made its change (docs/slackbot.md): a second use is refused. */
export interface SlackbotConfirmationsTable {
  token_id: string;
  user_id: string;
  tool: string;
  used_at: string;
  expires_at: string;
}

/** A mass change held for a second admin (docs/roles-and-approvals.md): its plan as previewed and its decision. */
export interface MassChangesTable {
  id: string;
  /** 'bulk' | 'reclaim'. */
  kind: string;
  submitter: string;
  /** JSON: the pool ids it touches. */
  pool_ids: string;
  /** JSON: the dry run's figures the card shows. */
  figures: string;
  /** JSON: the plan the start runs, exactly as previewed. */
  plan: string;
  /** 'confirm' | 'pending' | 'approved' | 'started' | 'rejected' | 'expired' | 'cancelled'. */
  state: string;
  created_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  started_at: string | null;
}

/** A deactivated member's license on hold (docs/leavers-and-offers.md#leavers): one row per license. */
export interface LeaverHoldsTable {
  license_id: string;
  pool_id: string;
  /** Lower-case. */
  student_email: string;
  /** The deactivated Slack member, when known (the sweep may find none). */
  slack_user: string | null;
  course_title: string | null;
  /** 1 when the pool gets a revoked seat back (only those are returned). */
  transferable: number;
  /** When License Desk learned of the deactivation (ISO). */
  since: string;
  /** since + LEAVER_GRACE_DAYS (ISO). */
  due: string;
  /** 'held' | 'returning' | 'returned' | 'listed' (untransferable, past the grace) | 'cancelled' | 'failed' | 'gone'. */
  state: string;
  /** The process that claimed the return, when, and until when. */
  claimed_by: string | null;
  claimed_at: string | null;
  claimed_until: string | null;
  ended_at: string | null;
  detail: string | null;
}
export type LeaverHoldRow = Selectable<LeaverHoldsTable>;

/** One row per week the leaver sweep ran: its claim, and what it came to. */
export interface LeaverSweepsTable {
  /** The week's Monday (YYYY-MM-DD, UTC). */
  week: string;
  started_at: string;
  finished_at: string | null;
  looked_up: number | null;
  found: number | null;
}
