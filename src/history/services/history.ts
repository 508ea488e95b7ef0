/**
 * `/licenses history`: the audit entries about a student's e-mail, a Slack member, a license or a pool,
 * newest first, a page at a time, and the whole of it as a CSV file (docs/history.md); a pool admin
 * finds only the entries about their pools. Reads only the
 * audit table (src/history/db/store.ts `searchAudit`, through its indexes); no licensing call.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../kernel/db/schema.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { ACTION_WORDS, OUTCOME_WORDS } from '../../kernel/domain/audit-sentence.js';
import { CSV_BOM, csvLine } from '../../kernel/domain/csv.js';
import {
  HISTORY_PAGE_SIZE,
  type HistoryPage,
  type HistoryQuery,
  type HistorySubject,
} from '../../kernel/domain/history.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import { type AuditMatch, searchAudit } from '../db/store.js';

/** The columns a subject is looked for in. */
export function matchesOf(subject: HistorySubject): AuditMatch[] {
  switch (subject.kind) {
    case 'email':
      // A course request's entries carry the requester's e-mail as the student's: one column finds both.
      return [{ column: 'student_email', value: subject.email }];
    case 'user':
      return [
        { column: 'actor', value: subject.userId },
        { column: 'requester', value: subject.userId },
        ...(subject.email ? [{ column: 'student_email' as const, value: subject.email }] : []),
      ];
    case 'id':
      return [
        { column: 'license_id', value: subject.id },
        { column: 'pool_id', value: subject.id },
      ];
  }
}

/** The pools a search keeps to: those of the person's scope (request-scope.ts); none: every entry. */
function scopedPools(): { pools?: string[] } {
  const scope = currentScope();
  return scope.all ? {} : { pools: [...scope.poolIds] };
}

/** The window's start for `days` back from `now`, to the second (it travels in a button). */
export function sinceOf(days: number | undefined, now: Date): string | undefined {
  if (days === undefined) return undefined;
  const ms = now.getTime() - days * 86_400_000;
  return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

export interface HistoryPageAsk extends HistoryQuery {
  page: number;
  /** The next (older) page: entries added before this row. */
  before?: number;
  /** The previous (newer) page: entries added after this row. */
  after?: number;
  emailProblem?: string;
}

export async function readHistoryPage(db: Kysely<Database>, ask: HistoryPageAsk): Promise<HistoryPage> {
  const found = await searchAudit(db, {
    matches: matchesOf(ask.subject),
    limit: HISTORY_PAGE_SIZE,
    ...scopedPools(),
    ...(ask.since ? { since: ask.since } : {}),
    ...(ask.before !== undefined ? { before: ask.before } : {}),
    ...(ask.after !== undefined && ask.before === undefined ? { after: ask.after } : {}),
  });
  const towardsNewer = ask.after !== undefined && ask.before === undefined;
  const cursored = ask.before !== undefined || towardsNewer;
  // Going back to newer entries and finding none newer than these: this is the first page.
  const page = towardsNewer && !found.more ? 1 : cursored ? Math.max(2, ask.page) : 1;
  return {
    subject: ask.subject,
    ...(ask.days !== undefined ? { days: ask.days } : {}),
    ...(ask.since ? { since: ask.since } : {}),
    page,
    items: found.hits,
    hasNewer: towardsNewer ? found.more : cursored,
    hasOlder: towardsNewer ? true : found.more,
    ...(found.newest !== undefined ? { newestId: found.newest } : {}),
    ...(found.oldest !== undefined ? { oldestId: found.oldest } : {}),
    ...(ask.emailProblem ? { emailProblem: ask.emailProblem } : {}),
  };
}

/** The export's columns, in order. */
export const HISTORY_CSV_HEADER = [
  'when',
  'who',
  'who name',
  'action',
  'outcome',
  'license',
  'pool',
  'student e-mail',
  'old end',
  'new end',
  'detail',
] as const;

export interface HistoryExport {
  /** The CSV file; the caller deletes it (`discard`) once uploaded. */
  file: string;
  bytes: number;
  filename: string;
  rows: number;
  discard(): Promise<void>;
}

/** Rows a read while exporting. */
const EXPORT_BATCH = 500;

function csvRow(e: AuditEntry, name: string | undefined): string {
  return csvLine([
    e.at,
    e.actor,
    name ?? '',
    ACTION_WORDS[e.action],
    OUTCOME_WORDS[e.outcome],
    e.licenseId,
    e.poolId,
    e.studentEmail,
    e.previousEndDate?.slice(0, 10),
    e.action === 'extend' ? e.endDate?.slice(0, 10) : undefined,
    e.detail,
  ]);
}

/**
 * Every entry of the history (all pages), newest first, as a CSV file in a temporary directory.
 * `nameOf` gives an actor's name when it is known (asked once per actor).
 */
export async function exportHistory(
  db: Kysely<Database>,
  query: HistoryQuery,
  opts: { now: Date; nameOf(actor: string): Promise<string | undefined>; tmpDir?: string },
): Promise<HistoryExport> {
  const dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'license-desk-history-'));
  const file = join(dir, 'history.csv');
  const discard = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  const names = new Map<string, string | undefined>();
  const nameOf = async (actor: string) => {
    if (actor === 'license-desk') return 'License Desk';
    if (!names.has(actor)) names.set(actor, await opts.nameOf(actor).catch(() => undefined));
    return names.get(actor);
  };
  const out = createWriteStream(file, { encoding: 'utf8' });
  let bytes = 0;
  let rows = 0;
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => {
      bytes += Buffer.byteLength(text);
      out.write(text, (error) => (error ? reject(error) : resolve()));
    });
  try {
    await write(`${CSV_BOM}${csvLine(HISTORY_CSV_HEADER)}`);
    let before: number | undefined;
    const pools = scopedPools();
    for (;;) {
      const found = await searchAudit(db, {
        matches: matchesOf(query.subject),
        limit: EXPORT_BATCH,
        ...pools,
        ...(query.since ? { since: query.since } : {}),
        ...(before !== undefined ? { before } : {}),
      });
      let chunk = '';
      for (const hit of found.hits) chunk += csvRow(hit.entry, await nameOf(hit.entry.actor));
      if (chunk) await write(chunk);
      rows += found.hits.length;
      if (!found.more || found.oldest === undefined) break;
      before = found.oldest;
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    out.destroy();
    await discard();
    throw error;
  }
  const stamp = opts.now.toISOString().slice(0, 10);
  return { file, bytes, filename: `license-history-${stamp}.csv`, rows, discard };
}
