/**
 * The audit trail: every change and every refused attempt becomes one structured
 * log line and, when AUDIT_CHANNEL is set, a message there. The e-mail never reaches the log line or
 * the file: both carry it masked (`a***@contoso.com`); the full address goes only to the audit channel
 * and to the in-memory entries that `recent()` returns. A failing post or file write is logged and
 * never reaches the person who made the change.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditEntry } from '../domain/audit-entry.js';
import { maskEmail, maskEmailsIn } from '../domain/email.js';
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
  /** Writes the log line and the file entry, and queues the channel post; resolves once both are written. */
  record(entry: AuditEntry): Promise<void>;
  recent(limit: number): Promise<AuditEntry[]>;
  /** Posts what waits for the audit channel (bursts at once, the rest at Slack's pace) within `timeoutMs`. */
  flush(timeoutMs: number): Promise<FlushResult>;
  /** For a shutdown: flush (default 5 s), then post nothing more; what is left unsent is logged. Idempotent. */
  close(timeoutMs?: number): Promise<FlushResult>;
}

export interface AuditLogOptions {
  logger: Logger;
  /** Posts the channel message (text fallback and blocks); given with `channel`. */
  post?: (text: string, blocks: unknown[]) => Promise<void>;
  channel?: string;
  /** JSON lines, appended per entry and read back at start, so recent changes survive a restart. */
  file?: string;
  /** Entries kept in memory; default 200. */
  keep?: number;
  /** Pace, refusal folding, bound and timers of the channel's post queue (services/audit-queue.ts). */
  posting?: AuditPostingOptions;
}

const ACTIONS = new Set<string>([
  'assign',
  'recycle',
  'extend',
  'revoke',
  'bulk-assign',
  'request',
  'request-approve',
  'request-deny',
  'request-waitlist',
  'request-expire',
  'request-cancel',
]);
const OUTCOMES = new Set(['done', 'refused', 'failed', 'unknown']);

/** For the log line and the file: the student's e-mail masked, and any address quoted in the detail
 *  (a server's refusal often names the student) masked too. */
function masked(entry: AuditEntry): AuditEntry {
  return {
    ...entry,
    ...(entry.studentEmail === undefined ? {} : { studentEmail: maskEmail(entry.studentEmail) }),
    ...(entry.detail === undefined ? {} : { detail: maskEmailsIn(entry.detail) }),
  };
}

function readLine(line: string): AuditEntry | undefined {
  try {
    const e = JSON.parse(line) as Partial<AuditEntry>;
    const ok =
      typeof e.at === 'string' &&
      typeof e.actor === 'string' &&
      ACTIONS.has(String(e.action)) &&
      OUTCOMES.has(String(e.outcome));
    return ok ? (e as AuditEntry) : undefined;
  } catch {
    return undefined;
  }
}

export function createAuditLog(opts: AuditLogOptions): AuditLog {
  const keep = opts.keep ?? 200;
  const { logger, file } = opts;
  let entries: AuditEntry[] = [];
  // One write at a time, in order; loading finishes before the first record or read.
  let chain: Promise<void> = file ? load(file) : Promise.resolve();

  async function load(path: string): Promise<void> {
    try {
      const text = await readFile(path, 'utf8');
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      const loaded = lines.slice(-keep).flatMap((l) => readLine(l) ?? []);
      entries = [...loaded, ...entries].slice(-keep);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') logger.warn('could not read the audit file', { error });
    }
  }

  async function append(path: string, entry: AuditEntry): Promise<void> {
    try {
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, `${JSON.stringify(masked(entry))}\n`, 'utf8');
    } catch (error) {
      logger.warn('could not write the audit file', { error });
    }
  }

  const { post, channel } = opts;
  const queue =
    post && channel
      ? createAuditPostQueue({
          channel,
          logger,
          post: (item) => {
            const { text, blocks } = messageOf(item);
            return post(text, blocks);
          },
          ...(opts.posting ? { options: opts.posting } : {}),
        })
      : undefined;
  const nothing: FlushResult = { posted: 0, unsent: 0 };

  return {
    async record(entry) {
      logger.info('audit', { ...masked(entry) });
      // The post waits its turn in the queue; the log line above and the file entry below never wait for it.
      if (!entry.quiet) queue?.add(entry);
      const done = chain.then(async () => {
        entries.push(entry);
        if (entries.length > keep) entries = entries.slice(-keep);
        if (file) await append(file, entry);
      });
      chain = done;
      await done;
    },
    async recent(limit) {
      await chain;
      return entries.slice(-Math.max(0, limit)).reverse();
    },
    flush: async (timeoutMs) => (queue ? queue.flush(timeoutMs) : nothing),
    close: async (timeoutMs = 5000) => (queue ? queue.close(timeoutMs) : nothing),
  };
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

/** [what was done, what was tried]. */
const VERB: Record<AuditEntry['action'], [string, string]> = {
  assign: ['assigned a license', 'assign a license'],
  recycle: ['freed a seat and assigned it', 'free a seat and assign it'],
  extend: ['changed an end date', 'change an end date'],
  revoke: ['revoked a license', 'revoke a license'],
  'bulk-assign': ['assigned licenses in bulk', 'assign licenses in bulk'],
  request: ['requested a course', 'request a course'],
  'request-approve': ['approved a course request', 'approve a course request'],
  'request-deny': ['denied a course request', 'deny a course request'],
  'request-waitlist': ['put a course request on the waitlist', 'put a course request on the waitlist'],
  'request-expire': ['let a course request expire', 'expire a course request'],
  'request-cancel': ['cancelled a course request', 'cancel a course request'],
};

const OUTCOME_TEXT: Record<AuditEntry['outcome'], string> = {
  done: ':white_check_mark: done',
  refused: ':no_entry_sign: refused',
  failed: ':x: failed',
  unknown: ':grey_question: outcome unknown',
};

const esc = (s: string, max = 300): string => {
  const cut =
    Array.from(s).length > max
      ? `${Array.from(s)
          .slice(0, max - 1)
          .join('')}…`
      : s;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
};

function studentText(entry: AuditEntry): string | undefined {
  const parts = [
    entry.studentName ? `*${esc(entry.studentName, 200)}*` : undefined,
    entry.studentEmail ? esc(entry.studentEmail, 254) : undefined,
  ].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? `student ${parts.join(' ')}` : undefined;
}

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
  const text = `:warning: ${count} audit ${count === 1 ? 'entry was' : 'entries were'} not posted here between ${dateOf(firstAt)} and ${dateOf(lastAt)}: too many were waiting. Each is in License Desk's log and audit file.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/**
 * The channel message: who (a mention built only from a well-formed Slack id), what, which student,
 * license and pool, the outcome and when (Slack date formatting with the ISO time as fallback).
 * Everything from the API or a form is escaped. Kept here, not in blocks/, so the audit log stays
 * usable without Slack; the shape is plain Block Kit JSON.
 */
export function auditMessage(entry: AuditEntry): { text: string; blocks: unknown[] } {
  const who = whoOf(entry.actor);
  const when = dateOf(entry.at);
  const facts = [
    studentText(entry),
    entry.courseTitle ? `course *${esc(entry.courseTitle, 200)}*` : undefined,
    entry.poolId ? `pool \`${esc(entry.poolId, 64)}\`` : undefined,
    entry.licenseId ? `license \`${esc(entry.licenseId, 64)}\`` : undefined,
  ].filter((f): f is string => f !== undefined);
  const [did, tried] = VERB[entry.action];
  const head = `${OUTCOME_TEXT[entry.outcome]} · ${who} ${entry.outcome === 'done' ? did : `tried to ${tried}`}`;
  const body = [facts.join(' · '), entry.detail ? `_${esc(entry.detail, 1500)}_` : undefined]
    .filter((l): l is string => Boolean(l))
    .join('\n');
  const text = `${head}${facts.length > 0 ? `: ${facts.join(' · ')}` : ''}`;
  const blocks = [
    { type: 'section', text: { type: 'mrkdwn', text: body ? `${head}\n${body}` : head } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: `License Desk audit · ${when}` }] },
  ];
  return { text: text.slice(0, 3900), blocks };
}
