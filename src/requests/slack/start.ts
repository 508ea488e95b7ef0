/**
 * Course requests and their waitlist, composed as one feature (src/main.ts and the test harness both
 * call composeRequests): the request service over the requests in the database, the waitlist (the
 * waitlisted requests in rank order), whose freed seats go through the request service's assign, the
 * delivery of what the outbox holds for them, the settle of their writes in flight, the reminder and
 * expiry check and the waitlist's background check. Composed by the composition root once the Bolt App exists: it takes the
 * app's bot client and audit trail as they are, and the caller puts the result into deps before the app
 * listens (the listeners read deps.requests and deps.waitlist when a request comes).
 */
import type { webApi } from '@slack/bolt';
import type { Records } from '../../kernel/db/open.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { startedJob } from '../../kernel/services/jobs/runner.js';
import type { NoticeSteps, Outbox } from '../../kernel/services/outbox.js';
import type { Intent, Intents } from '../../kernel/services/writes/intents.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { createOfferStore } from '../db/offer-store.js';
import { createDbRequestStore, type DbRequestStore } from '../db/request-store.js';
import { OFFER_DEFAULTS, type OfferSettings } from '../domain/offers.js';
import { isRequestNotice, type RequestLimits, type RequestTimers } from '../domain/requests.js';
import { createRequestCheck } from '../services/check.js';
import { createOffers, type Offers } from '../services/offers.js';
import { createRequestService, REQUEST_ASSIGN_INTENT } from '../services/service.js';
import type { RequestService } from '../services/types.js';
import { createWaitlist, type Waitlist } from '../services/waitlist.js';
import { createWaitlistWatch, type WaitlistWatch } from '../services/waitlist-watch.js';
import type { RequestsDeps } from './deps.js';
import { createRequestNotices } from './notices.js';
import { createRequesterName, createRequesterPresence } from './presence.js';
import { createRequestNoticeRenderers } from './request-notices.js';
import { createWaitlistNotices } from './waitlist/notices.js';
import { createOfferNoticeRenderer, isOfferNotice } from './waitlist/offer-notices.js';

export interface WaitlistSetup {
  /** The licensing budget the background check takes its share of (HOME_BUDGET_SHARE). */
  rateLimit: { limit: number; windowMs: number };
  share: number;
  /** Least time between two background checks; default 15 minutes. */
  intervalMs?: number;
  /** WAITLIST_OFFER_HOURS and OFFER_NOT_STARTED_DAYS (docs/leavers-and-offers.md#seats-offered-then-claimed); default 48 hours and 14 days. */
  offers?: Partial<OfferSettings>;
}

export interface RequestsOptions {
  /** The app's bot client (the composition root's Bolt App). */
  client: webApi.WebClient;
  /** The app's audit trail (built by the composition root). */
  audit: AuditLog;
  records: Records;
  intents: Intents;
  outbox: Outbox;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin (LICENSE_ADMINS user ids) by DM. */
  channel?: string | undefined;
  timers: RequestTimers;
  /** Without it, approving for a full pool offers only a recycle (transferable pools). */
  waitlist?: WaitlistSetup | undefined;
  /** How often the reminder and expiry check runs once started; default 5 minutes. */
  checkEveryMs?: number;
  /** REQUEST_MAX_OPEN and REQUEST_MAX_PER_DAY; default 3 and 10. */
  limits?: RequestLimits | undefined;
  /** REQUEST_ESCALATE_TO: who an escalated request goes to (user and group ids); empty: the owners. */
  escalateTo?: readonly string[] | undefined;
}

export interface RequestsFeature {
  requests: RequestsDeps;
  store: DbRequestStore;
  waitlist: Waitlist | undefined;
  /** The background check for seats freed outside License Desk (tests call tick()). */
  watch: WaitlistWatch | undefined;
  /** Seats offered, then claimed (WAITLIST_OFFER_HOURS above 0); tests call its tick(). */
  offers: Offers | undefined;
  /** The intent kind and its settle, for the Settler. */
  intentKind: string;
  settle(intent: Intent): Promise<void>;
  /** Sends one outbox message if it is one of this feature's notices: false when it is not. */
  deliver(body: unknown, steps?: NoticeSteps): Promise<boolean>;
  /** Starts the timers of the reminder and expiry check and of the background check. */
  start(): void;
  /** Ends both checks, waits briefly for seats being given; before the licensing client closes. */
  stop(): Promise<void>;
}

/**
 * The waitlist's offers (WAITLIST_OFFER_HOURS; none at 0), the job that moves them on every minute
 * (deadlines, claims a stop cut short, holders who never started) and the renderer of their DMs.
 */
function composeOffers(
  deps: AppDeps,
  opts: RequestsOptions,
  parts: {
    store: DbRequestStore;
    service: RequestService;
    pending: { waitlist: Waitlist | undefined };
  },
) {
  const { logger } = deps;
  const { store, service, pending } = parts;
  const settings = { ...OFFER_DEFAULTS, ...opts.waitlist?.offers };
  const offers =
    opts.waitlist && settings.hours > 0
      ? createOffers({
          offers: createOfferStore({ db: opts.records.db, dialect: opts.records.dialect, now: deps.now }),
          requests: store,
          outbox: opts.outbox,
          settings,
          assignWaitlisted: (entry) => service.assignWaitlisted(entry),
          seatMayBeFree: (poolId) => pending.waitlist?.noticeSeat(poolId),
          audit: (entry) => opts.audit.record(entry),
          now: deps.now,
          logger,
        })
      : undefined;
  const offerJob = offers
    ? startedJob(deps.jobs, logger, {
        name: 'waitlist: offers',
        everyMs: 60_000,
        firstAfterMs: 0,
        run: () =>
          offers
            .tick()
            .catch((error: unknown) => logger.warn('waitlist offers check failed', { error: String(error) })),
      })
    : undefined;
  return { offers, offerJob, deliverOffer: createOfferNoticeRenderer(opts.client, deps, offers) };
}

/** The background check for seats freed outside License Desk, at its share of the licensing budget. */
function watchOf(deps: AppDeps, setup: WaitlistSetup, waitlist: Waitlist) {
  return createWaitlistWatch({
    waitlist,
    licensing: deps.licensing,
    now: deps.now,
    logger: deps.logger,
    limit: setup.rateLimit.limit,
    windowMs: setup.rateLimit.windowMs,
    share: setup.share,
    ...(setup.intervalMs ? { intervalMs: setup.intervalMs } : {}),
    ...(deps.jobs ? { jobs: deps.jobs } : {}),
  });
}

/** `deps` is the AppDeps the result goes into (its logger, roles, sandbox marker and clock are read live). */
export function composeRequests(deps: AppDeps, opts: RequestsOptions): RequestsFeature {
  const { logger } = deps;
  const { audit } = opts;
  const store = createDbRequestStore({
    db: opts.records.db,
    dialect: opts.records.dialect,
    now: deps.now,
    durably: (fn) => opts.records.durably(fn),
    logger,
  });
  const cards = { store, channel: opts.channel, timers: opts.timers };
  const setup = opts.waitlist;
  const events = createRequestNotices(opts.client, deps, cards, opts.escalateTo);
  // A request back in line after a write that did not happen: its pool is looked at again.
  const pending = { waitlist: undefined as Waitlist | undefined, offers: undefined as Offers | undefined };
  const service = createRequestService({
    store,
    intents: opts.intents,
    outbox: opts.outbox,
    licensing: deps.licensing,
    audit,
    now: deps.now,
    logger,
    timers: opts.timers,
    waitlist: setup !== undefined,
    seatMayBeFree: (poolId) => pending.waitlist?.noticeSeat(poolId),
    heldSeats: async (poolId, requestId) =>
      pending.offers ? (await pending.offers.held(poolId)).filter((h) => h.requestId !== requestId).length : 0,
    presence: createRequesterPresence(opts.client, deps.roles),
    nameOf: createRequesterName(opts.client),
    limits: opts.limits,
    work: deps.work,
    // A write whose outcome the database did not take: read back as soon as the database answers again.
    settleLater: (intentId) => deps.settler?.adopt(intentId),
  });
  const { offers, offerJob, deliverOffer } = composeOffers(deps, opts, { store, service, pending });
  pending.offers = offers;
  const waitlist = setup
    ? createWaitlist({
        store: store.waitlistStore(),
        licensing: deps.licensing,
        assignWaitlisted: (entry) => service.assignWaitlisted(entry),
        audit,
        offers,
        now: deps.now,
        logger,
      })
    : undefined;
  pending.waitlist = waitlist;
  const check = createRequestCheck(service, logger, opts.checkEveryMs, deps.jobs);
  const watch = setup && waitlist ? watchOf(deps, setup, waitlist) : undefined;
  const deliver = createRequestNoticeRenderers({
    store,
    events,
    notifier: createWaitlistNotices(opts.client, deps),
    client: opts.client,
    deps,
  });
  return {
    requests: { ...cards, service, check },
    store,
    waitlist,
    watch,
    offers,
    intentKind: REQUEST_ASSIGN_INTENT,
    settle: (intent) => service.settle(intent),
    async deliver(body, steps) {
      if (isOfferNotice(body)) {
        await deliverOffer(body);
        return true;
      }
      if (!isRequestNotice(body)) return false;
      await deliver(body, steps);
      return true;
    },
    start() {
      check.start();
      watch?.start();
      offerJob?.start();
    },
    async stop() {
      await offerJob?.stop(0);
      await check.stop();
      await watch?.stop();
      await waitlist?.stop(3000);
    },
  };
}
