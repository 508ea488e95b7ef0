/**
 * What every Slack listener receives from the composition root (src/app/compose.ts).
 * Listeners never read process.env and never build a licensing client of their own.
 */

import type { webApi } from '@slack/bolt';
import type { ExtensionService } from '../../extensions/services/extensions.js';
import type { Desk } from '../../home/services/desk.js';
import type { ProgressThresholds } from '../../progress/domain/progress.js';
import type { ProgressPass } from '../../progress/services/progress-pass.js';
import type { Reclaim } from '../../reclaim/services/reclaim.js';
import type { DbRequestStore } from '../../requests/db/request-store.js';
import type { RequestTimers } from '../../requests/domain/requests.js';
import type { RequestCheck } from '../../requests/services/check.js';
import type { RequestService } from '../../requests/services/service.js';
import type { Waitlist } from '../../requests/services/waitlist.js';
import type { TwoPerson } from '../../two-person/services/two-person.js';
import type { Records } from '../db/open.js';
import type { Scope } from '../domain/scope.js';
import type { LicensingClient, Logger } from '../licensing/types.js';
import type { JobRunner } from '../services/jobs/runner.js';
import type { Outbox, OutboxSender } from '../services/outbox.js';
import type { SharedStore } from '../services/shared-store.js';
import type { WorkTracker } from '../services/work-tracker.js';
import type { Intents, Settler } from '../services/writes/intents.js';
import type { WriteLedger } from '../services/writes/ledger.js';
import type { Notices } from './notices.js';

/** admin: may change licenses; viewer: may look; none: refused, sees no student data. */
export type Role = 'admin' | 'viewer' | 'none';

export interface RoleResolver {
  /** Checked on every command, click and submission; never trusts ids carried in payloads. */
  roleOf(client: webApi.WebClient, userId: string): Promise<Role>;
  /** Who to ask for access, as mrkdwn (user and user-group mentions), for the polite refusal. */
  whoToAsk(): string;
  /**
   * May this person request a course (REQUESTERS)? 'off' when requests are turned off, 'not-member'
   * for guests, bots, deactivated or unknown accounts, 'not-listed' when REQUESTERS names others.
   */
  mayRequest?(client: webApi.WebClient, userId: string): Promise<'yes' | 'off' | 'not-member' | 'not-listed'>;
  /**
   * Is this person a full member (not a guest, a bot or deactivated)? Who may see their own licenses
   * (docs/learners.md): the same rule on guests as course requests, whatever REQUESTERS says.
   */
  isMember?(client: webApi.WebClient, userId: string): Promise<boolean>;
  /** The user ids (U…, W…) listed in LICENSE_ADMINS, for messages to them; groups are not expanded. */
  adminUsers?(): readonly string[];
  /** The user-group ids (S…) listed in LICENSE_ADMINS. */
  adminGroups?(): readonly string[];
  /**
   * Everyone a message to the license admins goes to: the user ids of LICENSE_ADMINS and the members
   * of its user groups (usergroups.users.list, cached like the role check), once each.
   */
  adminRecipients?(client: webApi.WebClient): Promise<string[]>;
  /**
   * The pools this person's role covers (roles kept in the database, docs/roles-and-approvals.md).
   * Absent, or for the owners and the roles from the environment: every pool.
   */
  scopeOf?(client: webApi.WebClient, userId: string): Promise<Scope>;
  /**
   * Who decides for this pool: the user ids of its admins (groups expanded), or the owners'
   * (adminRecipients) when it has none. Absent: the owners.
   */
  approversOf?(client: webApi.WebClient, poolId: string): Promise<string[]>;
  /** Whom to ask about this pool, as mrkdwn: its admins, or whoToAsk() when it has none. */
  whoToAskFor?(poolId: string): Promise<string>;
}

export interface AppDeps {
  licensing: LicensingClient;
  /** The database every record lives in (docs/records.md); main.ts opens it before anything else. */
  records?: Records;
  /** REDIS_URL only: the app's Redis connections, asked by /healthz (a PING with a short timeout). */
  redis?: { health(timeoutMs?: number): Promise<string | undefined> };
  /** Licensing writes recorded before they are sent; the settler settles those a dead process left. */
  intents?: Intents;
  settler?: Settler;
  /** Messages to people written with the change they tell of; `notices` renders them for Slack. */
  outbox?: Outbox & OutboxSender;
  notices?: Notices;
  roles: RoleResolver;
  logger: Logger;
  /** Injectable clock for every date rule and "ends in 3 weeks" hint. */
  now: () => Date;
  /** True when the in-process sandbox stands in for the licensing API: every reply shows a marker. */
  sandbox: boolean;
  /** Channel id for the audit trail, if configured. */
  auditChannel?: string;
  /** App Home, alerts, bulk jobs; without it those surfaces say they are not set up. */
  desk?: Desk;
  /** Approved requests waiting for a seat (src/requests/slack/start.ts); without it, `/licenses waitlist` says so. */
  waitlist?: Waitlist;
  /** Self-service course requests (docs/course-requests.md); without it those surfaces say they are off. */
  requests?: RequestsDeps;
  /** A learner's ask for more time (docs/learners.md, "Ask for more time"); without it the button says it is not set up. */
  extensions?: { service: ExtensionService };
  /** Reclaim rounds (docs/reclaim.md, src/reclaim/slack/start.ts); without it `/licenses reclaim` says it is off. */
  reclaim?: { service: Reclaim };
  /** The work in flight and the draining flag of a stop (docs/shutdown.md); the composition root makes it. */
  work?: WorkTracker;
  /** Records the admin's writes before they are sent (docs/records.md, "Writes in flight"); main.ts builds it on `records`. */
  writes?: WriteLedger;
  /** With REDIS_URL, the state the replicas share: the repeat guard (docs/deployment.md). */
  shared?: SharedStore;
  /** What the progress views judge by (PROGRESS_NOT_STARTED_DAYS, PROGRESS_STALLED_DAYS); default 14 and 30 days. */
  progress?: { thresholds: ProgressThresholds };
  /**
   * The daily progress pass (absent with PROGRESS_PASS=off): App Home's "Run the progress pass now", and
   * the weekly digest waits for its records to be fresh.
   */
  progressPass?: Pick<ProgressPass, 'runNow' | 'pace' | 'ready'>;
  /** The one job runner (src/kernel/services/jobs/runner.ts) every periodic job of the features is added to. */
  jobs?: JobRunner;
  /**
   * The two-person rule for mass changes (docs/roles-and-approvals.md): a bulk job or a reclaim round over
   * TWO_PERSON_MIN_ROWS waits for a second admin; without it (no records) they start as always.
   */
  twoPerson?: TwoPerson;
}

/** What the course-request surfaces need from the composition root (src/requests/slack/start.ts builds it). */
export interface RequestsDeps {
  store: DbRequestStore;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin (LICENSE_ADMINS user ids) by DM. */
  channel?: string | undefined;
  timers: RequestTimers;
  service: RequestService;
  /** The reminder and expiry check (started by the composition root; tests call tick()). */
  check: RequestCheck;
}
