/**
 * The audit trail: every change and every refused attempt becomes one structured
 * log line and, when AUDIT_CHANNEL is set, a message there. The e-mail never reaches the log line or
 * the file: both carry it masked (`a***@contoso.com`); the full address goes only to the audit channel
 * and to the in-memory entries that `recent()` returns. A failing post or file write is logged and
 * never reaches the person who made the change.
 */
import { appendFile, mkdir, open, rename, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { AUDIT_ACTIONS, type AuditEntry } from '../domain/audit-entry.js';
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
import type { SharedStore } from './shared-store.js';

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
  /** Posts the channel message (text fallback, blocks and message metadata); given with `channel`. */
  post?: (text: string, blocks: unknown[], metadata: AuditMetadata) => Promise<void>;
  channel?: string;
  /**
   * JSON lines, appended per entry; only its tail is read back at start, so recent changes survive a
   * restart. Rotated at `rotation.maxBytes`: audit.jsonl -> audit.1.jsonl -> … (docs/audit-trail.md).
   */
  file?: string;
  /** Size cap of the file and how many files are kept, the current one included; default 10 MiB and 5. */
  rotation?: { maxBytes?: number; files?: number };
  /** Entries kept in memory; default 200. */
  keep?: number;
  /** Pace, refusal folding, bound and timers of the channel's post queue (services/audit-queue.ts). */
  posting?: AuditPostingOptions;
  /**
   * With REDIS_URL: the recent list is shared by the replicas (LPUSH + LTRIM of the masked entry), so
   * every App Home shows the changes made through any of them. Unreachable: this process's own list.
   */
  shared?: SharedStore;
}

const RECENT_KEY = 'audit:recent';

// Lines with an action this version does not know (written by a newer one) are skipped, not fatal.
const ACTIONS = new Set<string>(AUDIT_ACTIONS);
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

export const AUDIT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const AUDIT_FILES_KEPT = 5;
/** Read backwards in blocks of this size; a start reads a few blocks, never a whole file. */
const TAIL_BLOCK = 64 * 1024;

/** audit.jsonl, audit.1.jsonl, audit.2.jsonl, …: index 0 is the file written now. */
export function auditFileAt(path: string, index: number): string {
  if (index === 0) return path;
  const ext = extname(path);
  return join(dirname(path), `${basename(path, ext)}.${index}${ext}`);
}

/**
 * The last `count` non-empty lines of a file, read backwards block by block from its end, and the
 * bytes read: a 1,000,000-line file costs a few blocks, not its size. A missing file has no lines.
 */
export async function readTailLines(path: string, count: number): Promise<{ lines: string[]; bytesRead: number }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { lines: [], bytesRead: 0 };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const blocks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    let bytesRead = 0;
    // count + 1 line ends: the first line of what was read may be cut.
    while (position > 0 && newlines <= count) {
      const length = Math.min(TAIL_BLOCK, position);
      position -= length;
      const block = Buffer.alloc(length);
      const { bytesRead: n } = await handle.read(block, 0, length, position);
      bytesRead += n;
      blocks.unshift(block.subarray(0, n));
      for (let i = 0; i < n; i += 1) if (block[i] === 0x0a) newlines += 1;
    }
    const lines = Buffer.concat(blocks).toString('utf8').split('\n');
    if (position > 0) lines.shift();
    return { lines: lines.filter((l) => l.trim() !== '').slice(-count), bytesRead };
  } finally {
    await handle.close();
  }
}

export function createAuditLog(opts: AuditLogOptions): AuditLog {
  const keep = opts.keep ?? 200;
  const { logger, file } = opts;
  const maxBytes = Math.max(1, opts.rotation?.maxBytes ?? AUDIT_FILE_MAX_BYTES);
  const filesKept = Math.max(1, Math.floor(opts.rotation?.files ?? AUDIT_FILES_KEPT));
  let entries: AuditEntry[] = [];
  /** The current file's size, known after load; kept up to date by append. */
  let size = 0;
  // One write at a time, in order; loading finishes before the first record or read.
  let chain: Promise<void> = file ? load(file) : Promise.resolve();

  /** The recent entries from the tails of the newest files (the current one may have just been rotated). */
  async function load(path: string): Promise<void> {
    try {
      size = await stat(path).then(
        (s) => s.size,
        () => 0,
      );
      let loaded: AuditEntry[] = [];
      for (let index = 0; index < filesKept && loaded.length < keep; index += 1) {
        const { lines } = await readTailLines(auditFileAt(path, index), keep - loaded.length);
        loaded = [...lines.flatMap((l) => readLine(l) ?? []), ...loaded];
      }
      entries = [...loaded, ...entries].slice(-keep);
    } catch (error) {
      logger.warn('could not read the audit file', { error });
    }
  }

  /** audit.jsonl becomes audit.1.jsonl, each older one moves up by one, and the oldest kept is replaced. */
  async function rotate(path: string): Promise<void> {
    for (let index = filesKept - 1; index >= 1; index -= 1) {
      try {
        await rename(auditFileAt(path, index - 1), auditFileAt(path, index));
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      }
    }
    size = 0;
  }

  async function append(path: string, entry: AuditEntry): Promise<void> {
    const line = `${JSON.stringify(masked(entry))}\n`;
    const bytes = Buffer.byteLength(line);
    try {
      await mkdir(dirname(path), { recursive: true });
      if (size > 0 && size + bytes > maxBytes) {
        if (filesKept > 1) await rotate(path);
        else {
          // One file kept: start it again.
          await (await open(path, 'w')).close();
          size = 0;
        }
      }
      await appendFile(path, line, 'utf8');
      size += bytes;
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
            return post(text, blocks, metadataOf(item));
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
        await opts.shared?.pushCapped(RECENT_KEY, JSON.stringify(masked(entry)), keep).catch((error: unknown) => {
          logger.warn('could not add the audit entry to the shared recent list', { error: String(error) });
        });
      });
      chain = done;
      await done;
    },
    async recent(limit) {
      await chain;
      if (opts.shared) {
        try {
          return (await opts.shared.newest(RECENT_KEY, limit)).flatMap((l) => readLine(l) ?? []);
        } catch (error) {
          logger.warn("could not read the shared recent list; showing this replica's own", { error: String(error) });
        }
      }
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
  const text = `:warning: ${count} audit ${count === 1 ? 'entry was' : 'entries were'} not posted here between ${dateOf(firstAt)} and ${dateOf(lastAt)}: too many were waiting. Each is in License Desk's log and audit file.`;
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
