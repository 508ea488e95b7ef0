/**
 * A request row and the request it holds: the whole request as JSON in `body`, read back with the
 * domain's own check. A row that cannot be read (a body cut short, `null`, not a request) is reported
 * once by its id, never by its contents (they may hold student data).
 */
import type { Kysely } from 'kysely';
import type { Database, RequestRow } from '../../kernel/db/schema.js';
import { type CourseRequest, readStoredRequest, UnreadableRequestError } from '../domain/requests.js';

/** Where the store reports a row it cannot read (the app's logger). */
export interface StoreLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface DbRequestStoreOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  now: () => Date;
  /** Records.durably: what `durableTransaction` commits through; unset, it is a plain transaction. */
  durably?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Where a request row that cannot be read is reported (a warning naming its id, once per row). */
  logger?: StoreLogger;
}

type Row = Pick<RequestRow, 'id' | 'body'>;

/** Per store (its options, shared by every `within`): the ids of rows already reported as unreadable. */
const reportedBy = new WeakMap<DbRequestStoreOptions, Set<string>>();

function reportUnreadable(opts: DbRequestStoreOptions, id: string): void {
  let reported = reportedBy.get(opts);
  if (!reported) {
    reported = new Set();
    reportedBy.set(opts, reported);
  }
  if (reported.has(id)) return;
  if (reported.size < 10_000) reported.add(id);
  opts.logger?.warn('a course request in the records cannot be read (its stored data is damaged); it is left out', {
    requestId: id,
  });
}

/** The request of one row; an unreadable one throws UnreadableRequestError (an action on it is told so). */
export function parseOne(row: Row, opts: DbRequestStoreOptions): CourseRequest {
  const request = readStoredRequest(row.body);
  if (request) return request;
  reportUnreadable(opts, row.id);
  throw new UnreadableRequestError(row.id);
}

/** The requests of a list of rows, those that cannot be read left out (each reported once). */
export function parseMany(rows: readonly Row[], opts: DbRequestStoreOptions): CourseRequest[] {
  const out: CourseRequest[] = [];
  for (const row of rows) {
    const request = readStoredRequest(row.body);
    if (request) out.push(request);
    else reportUnreadable(opts, row.id);
  }
  return out;
}

/** The columns of a request beside its body (what the queries select on), with the body itself. */
export function columnsOf(r: CourseRequest, at: string) {
  return { status: r.status, pool_id: r.poolId, requester: r.requester, body: JSON.stringify(r), updated_at: at };
}

/** The ids of the request rows that cannot be read (the start-up check reports them). */
export async function unreadableRequests(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('requests').select(['id', 'body']).orderBy('id').execute();
  return rows.filter((row) => readStoredRequest(row.body) === undefined).map((row) => row.id);
}
