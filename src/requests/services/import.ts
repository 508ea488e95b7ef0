/**
 * The course requests and the waitlist as earlier versions kept them (DATA_DIR/requests.json and
 * DATA_DIR/waitlist.json) are imported once into the database, in one transaction: every request,
 * and the waitlisted ones with their rank in their line's order. Then both files are moved aside
 * (`…imported-<time>`) with a log line. A file that cannot be read (not JSON, cut short, a `null`
 * entry, not the shape License Desk wrote) stops the import with one sentence that names the file and
 * says what to do: requests are never dropped in silence.
 *
 * An approval whose assign was running when the old version stopped (approved, no seat choice) comes
 * in as 'assigning' with an open intent, so the check reads back whether its license exists; a line
 * entry whose request no longer waits (assigned, denied …) is dropped from the line.
 */
import { existsSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Records } from '../../kernel/db/open.js';
import type { Logger } from '../../kernel/licensing/types.js';
import type { Intents } from '../../kernel/services/writes/intents.js';
import { createDbRequestStore } from '../db/request-store.js';
import { type CourseRequest, REQUEST_STATUSES, type RequestStatus } from '../domain/requests.js';
import { REQUEST_ASSIGN_INTENT } from './service.js';

/** A file that cannot be imported; `message` is the sentence for the operator. */
export class ImportProblem extends Error {
  override readonly name = 'ImportProblem';
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

function problem(path: string, what: string): ImportProblem {
  return new ImportProblem(
    `${resolve(path)} ${what}: restore it from a backup, or move it out of DATA_DIR to start without the requests it holds (nothing was imported)`,
  );
}

async function readFileJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ImportProblem(
      `${resolve(path)} cannot be read (${(error as Error).message}): check that this user may read it`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw problem(path, 'is not complete JSON (cut short or damaged)');
  }
}

function requestsOf(path: string, raw: unknown): CourseRequest[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw problem(path, 'is not a requests file');
  const file = raw as { version?: unknown; requests?: unknown };
  if (
    file.version !== 1 ||
    typeof file.requests !== 'object' ||
    file.requests === null ||
    Array.isArray(file.requests)
  ) {
    throw problem(path, 'is not a requests file of version 1');
  }
  const out: CourseRequest[] = [];
  for (const [id, value] of Object.entries(file.requests as Record<string, unknown>)) {
    const r = value as Partial<CourseRequest> | null;
    const ok =
      typeof r === 'object' &&
      r !== null &&
      r.id === id &&
      isText(r.requester) &&
      isText(r.poolId) &&
      isText(r.createdAt) &&
      typeof r.requesterEmail === 'string' &&
      REQUEST_STATUSES.includes(r.status as RequestStatus);
    if (!ok) throw problem(path, `holds a request that is not complete (entry "${id.slice(0, 40)}")`);
    out.push({ ...(r as CourseRequest), cards: Array.isArray(r.cards) ? r.cards : [] });
  }
  return out;
}

function linesOf(path: string, raw: unknown): Record<string, string[]> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw problem(path, 'is not a waitlist file');
  const out: Record<string, string[]> = {};
  for (const [poolId, line] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(line)) throw problem(path, `holds a line that is not a list (pool "${poolId.slice(0, 40)}")`);
    out[poolId] = line.map((e) => {
      const entry = e as { requestId?: unknown; poolId?: unknown } | null;
      if (typeof entry !== 'object' || entry === null || !isText(entry.requestId) || entry.poolId !== poolId) {
        throw problem(path, `holds an entry that is not complete (pool "${poolId.slice(0, 40)}")`);
      }
      return entry.requestId;
    });
  }
  return out;
}

export interface ImportResult {
  requests: number;
  waitlisted: number;
  /** Approvals that were running when the old version stopped: read back by the check. */
  assigning: number;
}

/** Imports the old files once (see the file's comment); undefined when there was nothing to import. */
export async function importRequestFiles(opts: {
  records: Records;
  intents: Intents;
  dataDir: string;
  logger: Logger;
  now: () => Date;
}): Promise<ImportResult | undefined> {
  const requestsPath = join(opts.dataDir, 'requests.json');
  const waitlistPath = join(opts.dataDir, 'waitlist.json');
  const hasRequests = existsSync(requestsPath);
  const hasWaitlist = existsSync(waitlistPath);
  if (!hasRequests && !hasWaitlist) return undefined;
  // Both read and checked before anything is written.
  const requests = hasRequests ? requestsOf(requestsPath, await readFileJson(requestsPath)) : [];
  const lines = hasWaitlist ? linesOf(waitlistPath, await readFileJson(waitlistPath)) : {};
  const at = opts.now().toISOString();
  const byId = new Map(requests.map((r) => [r.id, r]));
  const ranks = new Map<string, number>();
  for (const [poolId, ids] of Object.entries(lines)) {
    let rank = 0;
    for (const id of ids) {
      const r = byId.get(id);
      if (r?.status !== 'waitlisted' || r.poolId !== poolId || ranks.has(id)) continue;
      ranks.set(id, ++rank);
    }
  }
  // Waitlisted but in no line (the old version stopped between the two files): at the end of its line.
  for (const r of requests) {
    if (r.status !== 'waitlisted' || ranks.has(r.id)) continue;
    const top = Math.max(0, ...[...ranks].filter(([id]) => byId.get(id)?.poolId === r.poolId).map(([, n]) => n));
    ranks.set(r.id, top + 1);
  }
  const result: ImportResult = { requests: 0, waitlisted: ranks.size, assigning: 0 };
  const store = createDbRequestStore({
    db: opts.records.db,
    dialect: opts.records.dialect,
    now: opts.now,
    durably: (fn) => opts.records.durably(fn),
  });
  await store.durableTransaction(async (trx, s) => {
    const items: { request: CourseRequest; rank: number | null }[] = [];
    for (const r of requests) {
      let request = r;
      if (r.status === 'approved' && !r.seatChoice) {
        // Its assign was running: recorded as a write in flight, read back by the check.
        const intentId = await opts.intents.open(trx, {
          kind: REQUEST_ASSIGN_INTENT,
          owner: r.decidedBy ?? 'license-desk',
          subject: r.id,
          poolId: r.poolId,
          body: { requestId: r.id, poolId: r.poolId, email: r.requesterEmail, from: 'approval', imported: true },
        });
        request = {
          ...r,
          status: 'assigning',
          assigning: { intentId, from: 'approval', by: r.decidedBy ?? 'license-desk', at: r.decidedAt ?? at },
        };
        result.assigning++;
      }
      items.push({ request, rank: ranks.get(r.id) ?? null });
    }
    result.requests = await s.insertMany(items);
  });
  const aside = at.replace(/[:.]/g, '-');
  for (const path of [hasRequests ? requestsPath : undefined, hasWaitlist ? waitlistPath : undefined]) {
    if (path) await rename(path, `${path}.imported-${aside}`);
  }
  opts.logger.info('course requests and the waitlist imported into the database; the old files were moved aside', {
    ...result,
    suffix: `.imported-${aside}`,
  });
  return result;
}
