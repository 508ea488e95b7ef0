/**
 * The weekly sweep (docs/leavers-and-offers.md, "The sweep"): every distinct holder e-mail the progress records
 * know is looked up in Slack, one lookup at a time at the pace of users.lookupByEmail (Tier 3, about
 * 50 a minute), a 429 waited out for its Retry-After, to catch a deactivation (or a reactivation)
 * whose event was missed while License Desk was down. A deleted member, or an e-mail Slack no longer
 * knows, is put on hold as if the event had come; an active member still on hold is let go.
 */
import type { LeaversContext } from './context.js';
import { cancelHold, holdLeaver } from './hold.js';

/** What Slack said of one e-mail (the slack layer asks; this layer never sees Slack). */
export type SlackLookup =
  | { kind: 'active'; user: string }
  | { kind: 'deleted'; user: string }
  | { kind: 'missing' }
  /** Rate limited: ask again after this long. */
  | { kind: 'busy'; retryAfterMs: number }
  | { kind: 'failed'; error: string };

export interface SweepPorts {
  /** The holders' e-mails (the progress records'). */
  emails(): Promise<string[]>;
  lookup(email: string): Promise<SlackLookup>;
  /** Waits `ms` (the runner's timers; tests count the waits instead). */
  wait(ms: number): Promise<void>;
  /** Milliseconds between two lookups. */
  paceMs: number;
  /** True once the app is stopping: the sweep ends where it is. */
  stopping(): boolean;
}

export interface SweepReport {
  holders: number;
  /** Slack requests made (users.lookupByEmail, retries included). */
  slackRequests: number;
  /** 429 answers waited out. */
  rateLimited: number;
  /** Time spent waiting for the pace and for Retry-After (ms). */
  waitedMs: number;
  /** Members found deactivated or gone, and how many of them held something. */
  found: number;
  held: number;
  /** Holds let go: the member is active after all. */
  cancelled: number;
  failed: number;
  stopped: boolean;
}

/** Tries for one e-mail before it is left for next week. */
const MAX_TRIES = 4;

async function lookUp(ports: SweepPorts, email: string, report: SweepReport): Promise<SlackLookup> {
  let answer: SlackLookup = { kind: 'failed', error: 'not asked' };
  for (let i = 0; i < MAX_TRIES && !ports.stopping(); i++) {
    if (report.slackRequests > 0) {
      await ports.wait(ports.paceMs);
      report.waitedMs += ports.paceMs;
    }
    report.slackRequests += 1;
    answer = await ports.lookup(email);
    if (answer.kind !== 'busy') return answer;
    report.rateLimited += 1;
    await ports.wait(answer.retryAfterMs);
    report.waitedMs += answer.retryAfterMs;
  }
  return answer;
}

export async function sweep(ctx: LeaversContext, ports: SweepPorts): Promise<SweepReport> {
  const emails = await ports.emails();
  const report: SweepReport = {
    holders: emails.length,
    slackRequests: 0,
    rateLimited: 0,
    waitedMs: 0,
    found: 0,
    held: 0,
    cancelled: 0,
    failed: 0,
    stopped: false,
  };
  for (const email of emails) {
    if (ports.stopping()) {
      report.stopped = true;
      break;
    }
    const answer = await lookUp(ports, email, report);
    if (answer.kind === 'busy' || answer.kind === 'failed') {
      report.failed += 1;
      continue;
    }
    if (answer.kind === 'active') {
      // A reactivation missed while the app was down.
      if ((await ctx.store.heldOf(email)).length > 0)
        report.cancelled += await cancelHold(ctx, { email, slackUser: answer.user });
      continue;
    }
    report.found += 1;
    // Already on hold: nothing to read again.
    if ((await ctx.store.heldOf(email)).length > 0) continue;
    const slackUser = answer.kind === 'deleted' ? { slackUser: answer.user } : {};
    const outcome = await holdLeaver(ctx, { email, ...slackUser, bySweep: true });
    if (outcome.kind === 'held' && outcome.fresh) report.held += 1;
  }
  ctx.logger.info('leavers: the weekly sweep ended', { ...report });
  return report;
}
