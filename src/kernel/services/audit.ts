/**
 * The audit trail: every change and every refused attempt becomes one structured log line, one row
 * of the audit table (docs/records.md, "The audit trail": one table for every process that uses the
 * database) and, when AUDIT_CHANNEL is set, a message there. The log line carries the student's
 * e-mail masked (`a***@contoso.com`), also where the detail quotes it; the table keeps the whole entry
 * (the history of a student is searched by address), as the audit channel shows it. A failing post or
 * insert is logged and never reaches the person who made the change.
 */
import { appendAudit, newestAudit } from '../db/audit.js';
import type { Records } from '../db/open.js';
import type { AuditEntry } from '../domain/audit-entry.js';
import { auditSentence } from '../domain/audit-sentence.js';
import { maskEmail, maskEmailsIn } from '../domain/email.js';
import { escapeTruncated } from '../domain/mrkdwn.js';
import type { Logger } from '../licensing/types.js';
import {
  type AuditPostingOptions,
  createAuditPostQueue,
  type FlushResult,
  type QueuedPost,
  type RefusalBurst,
} from './audit-queue.js';

export type { AuditEntry };

export interface AuditLog {
  /** Writes the log line and the row, and queues the channel post; resolves once the row is written (or failed). */
  record(entry: AuditEntry): Promise<void>;
  /** The newest entries, newest first: from the audit table (every process's), or without one this process's own. */
  recent(limit: number): Promise<AuditEntry[]>;
  /** Posts what waits for the audit channel (bursts at once, the rest at Slack's pace) within `timeoutMs`. */
  flush(timeoutMs: number): Promise<FlushResult>;
  /** For a shutdown: flush (default 5 s), then post nothing more; what is left unsent is logged. Idempotent. */
  close(timeoutMs?: number): Promise<FlushResult>;
}

export interface AuditLogOptions {
  logger: Logger;
  /** Posts the channel message (text fallback, blocks and message metadata); given with `channel`. */
  post?: (text: string, blocks: unknown[], metadata: AuditMetadata) => Promise<void>;
  channel?: string;
  /** The database whose audit table the entries go to and App Home's recent changes come from (main.ts always gives it). */
  records?: Pick<Records, 'db'>;
  /** Without `records`: the entries this process keeps in memory for recent(); default 200. */
  keep?: number;
  /** Pace, refusal folding, bound and timers of the channel's post queue (services/audit-queue.ts). */
  posting?: AuditPostingOptions;
}

/** For the log line: the student's e-mail masked, and any address quoted in the detail (a server's
 *  refusal often names the student) masked too. */
function masked(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    ...(entry.studentEmail === undefined ? {} : { studentEmail: maskEmail(entry.studentEmail) }),
    ...(entry.detail === undefined ? {} : { detail: maskEmailsIn(entry.detail) }),
  };
}

export function createAuditLog(opts: AuditLogOptions): AuditLog {
  const keep = opts.keep ?? 200;
  const { logger } = opts;
  const db = opts.records?.db;
  /** Without a database only: this process's newest entries. */
  let entries: AuditEntry[] = [];

  const { post, channel } = opts;
  const queue =
    post && channel
      ? createAuditPostQueue({
          channel,
          logger,
          post: (item) => {
            const { text, blocks } = messageOf(item);
            return post(text, blocks, metadataOf(item));
          },
          ...(opts.posting ? { options: opts.posting } : {}),
        })
      : undefined;
  const nothing: FlushResult = { posted: 0, unsent: 0 };

  return {
    async record(entry) {
      logger.info('audit', { ...masked(entry) });
      // The post waits its turn in the queue; the log line above and the row below never wait for it.
      if (!entry.quiet) queue?.add(entry);
      if (!db) {
        entries.push(entry);
        if (entries.length > keep) entries = entries.slice(-keep);
        return;
      }
      try {
        await appendAudit(db, entry);
      } catch (error) {
        logger.warn('could not write the audit entry to the database; the log line above holds it', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    },
    async recent(limit) {
      if (db) return newestAudit(db, limit);
      return entries.slice(-Math.max(0, limit)).reverse();
    },
    flush: async (timeoutMs) => (queue ? queue.flush(timeoutMs) : nothing),
    close: async (timeoutMs = 5000) => (queue ? queue.close(timeoutMs) : nothing),
  };
}

/** The event type of the message metadata on every audit channel post (docs/audit-trail.md). */
export const AUDIT_EVENT_TYPE = 'license_desk_audit';

/**
 * Slack message metadata for other tools reading the channel: the entry's facts as plain values,
 * never the student's name or e-mail (metadata is readable by any app with metadata.message:read).
 */
export interface AuditMetadata {
  event_type: typeof AUDIT_EVENT_TYPE;
  event_payload: Record<string, string | number>;
}

export function auditMetadata(entry: AuditEntry): AuditMetadata {
  return {
    event_type: AUDIT_EVENT_TYPE,
    event_payload: {
      action: entry.action,
      ...(entry.licenseId ? { license_id: entry.licenseId } : {}),
      ...(entry.poolId ? { pool_id: entry.poolId } : {}),
      actor: entry.actor,
      outcome: entry.outcome,
      at: entry.at,
    },
  };
}

/** A burst names the person and how often they were refused; a dropped notice, how many posts were lost. */
function metadataOf(item: QueuedPost): AuditMetadata {
  switch (item.kind) {
    case 'entry':
      return auditMetadata(item.entry);
    case 'burst':
      return {
        event_type: AUDIT_EVENT_TYPE,
        event_payload: {
          action: 'refusals',
          actor: item.burst.actor,
          outcome: 'refused',
          at: item.burst.lastAt,
          count: item.burst.count,
        },
      };
    case 'dropped':
      return {
        event_type: AUDIT_EVENT_TYPE,
        event_payload: {
          action: 'posts-dropped',
          actor: 'license-desk',
          outcome: 'unknown',
          at: item.lastAt,
          count: item.count,
        },
      };
  }
}

function messageOf(item: QueuedPost): { text: string; blocks: unknown[] } {
  switch (item.kind) {
    case 'entry':
      return auditMessage(item.entry);
    case 'burst':
      return burstMessage(item.burst, item.windowMs);
    case 'dropped':
      return droppedMessage(item.count, item.firstAt, item.lastAt);
  }
}

const OUTCOME_TEXT: Record<AuditEntry['outcome'], string> = {
  done: ':white_check_mark: done',
  refused: ':no_entry_sign: refused',
  failed: ':x: failed',
  unknown: ':grey_question: outcome unknown',
};

const esc = (s: string, max = 300): string => escapeTruncated(s, max);

function whoOf(actor: string): string {
  return /^[UW][A-Z0-9]{2,20}$/.test(actor) ? `<@${actor}>` : esc(actor, 40);
}

function dateOf(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? esc(iso, 40) : `<!date^${Math.floor(at / 1000)}^{date_short} {time}|${esc(iso, 40)}>`;
}

/** "in the last minute", "in the last 3 minutes". */
function lastWhile(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes === 1 ? 'in the last minute' : `in the last ${minutes} minutes`;
}

/**
 * One post for a burst of refusals by one person: "@x was refused 30 times in the last minute:
 * extend license `4001` (30)", what was tried and how often, the last reason, first and last time.
 */
export function burstMessage(burst: RefusalBurst, windowMs: number): { text: string; blocks: unknown[] } {
  const tries = [...burst.tries].map(([what, n]) => `${esc(what, 120)}${n > 1 ? ` (${n})` : ''}`);
  if (burst.otherTries > 0) tries.push(`${burst.otherTries} other`);
  const head = `${OUTCOME_TEXT.refused} · ${whoOf(burst.actor)} was refused ${burst.count} times ${lastWhile(windowMs)}: ${tries.join(', ')}`;
  const why = burst.lastDetail ? `_last reason: ${esc(burst.lastDetail, 500)}_` : undefined;
  const blocks = [
    { type: 'section', text: { type: 'mrkdwn', text: (why ? `${head}\n${why}` : head).slice(0, 2900) } },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `License Desk audit · ${dateOf(burst.firstAt)} to ${dateOf(burst.lastAt)}` }],
    },
  ];
  return { text: head.slice(0, 3900), blocks };
}

/** Said in the channel once it has room again: how many posts were dropped, and where they still are. */
export function droppedMessage(count: number, firstAt: string, lastAt: string): { text: string; blocks: unknown[] } {
  const text = `:warning: ${count} audit ${count === 1 ? 'entry was' : 'entries were'} not posted here between ${dateOf(firstAt)} and ${dateOf(lastAt)}: too many were waiting. Each is in License Desk's log and audit table.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/**
 * The channel message: one sentence of who did what to whom (domain/audit-sentence.ts: people as
 * mentions built only from well-formed Slack ids, or names), the facts the sentence does not hold
 * (the student's e-mail, pool and license ids), the reason, and when (Slack date formatting with the
 * ISO time as fallback). Everything from the API or a form is escaped (domain/mrkdwn.ts). Kept here,
 * not in blocks/, so the audit log stays usable without Slack; the shape is plain Block Kit JSON.
 */
export function auditMessage(entry: AuditEntry): { text: string; blocks: unknown[] } {
  const when = dateOf(entry.at);
  const sentence = auditSentence(entry, { emails: true });
  const email = entry.studentEmail ? esc(entry.studentEmail, 254) : undefined;
  const facts = [
    email && !sentence.includes(email) ? `student ${email}` : undefined,
    entry.poolId ? `pool \`${esc(entry.poolId, 64)}\`` : undefined,
    entry.licenseId ? `license \`${esc(entry.licenseId, 64)}\`` : undefined,
  ].filter((f): f is string => f !== undefined && !sentence.includes(f));
  const head = `${OUTCOME_TEXT[entry.outcome]} · ${sentence}`;
  const body = [facts.join(' · '), entry.detail ? `_${esc(entry.detail, 1500)}_` : undefined]
    .filter((l): l is string => Boolean(l))
    .join('\n');
  const text = `${head}${facts.length > 0 ? `: ${facts.join(' · ')}` : ''}`;
  const blocks = [
    { type: 'section', text: { type: 'mrkdwn', text: (body ? `${head}\n${body}` : head).slice(0, 2900) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `License Desk audit · ${when}` }] },
  ];
  return { text: text.slice(0, 3900), blocks };
}
