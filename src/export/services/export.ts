/**
 * `/licenses export [poolId]`: every license (inactive included) of the account or of one pool, as
 * CSV written to a temporary file page by page, so that a big account never sits in memory as
 * License and Student objects or as one CSV string. The caller uploads the file and deletes it.
 *
 * Cost and path (docs/export.md): reads go at background priority, so people waiting in Slack keep
 * their reserved slots while a long export runs.
 * - The whole account: the pools list, one walk of GET /v1/students for the course progress (one
 *   request per page of students), then one walk of GET /v1/licenses (one per page of licenses).
 *   Reading pool by pool would cost at least one request per pool, which is more whenever pools hold
 *   fewer licenses than a page on average (1,000 pools of 50 licenses: 1,000 requests instead of 500).
 *   Each license becomes its CSV line at once; the lines wait in a few small files (runs of pools)
 *   until the walk ends, then go out in the export order (pools in collator order, each pool's
 *   licenses by start).
 * - One pool: the pool's own pages, then the cheaper of two ways to the progress of its students:
 *   one GET /v1/student per distinct student, or the walk of every student, whose page count is
 *   estimated from the seats assigned across the account (a student holds at least one license).
 *   A 10-license pool in a 50,000-license account costs about 11 requests instead of 250.
 * Between chunks of work the event loop gets a turn, so no step holds it for long.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSV_BOM, type CsvValue, csvLine, EXPORT_COLUMNS } from '../../kernel/domain/csv.js';
import { dayOf } from '../../kernel/domain/end-date.js';
import { licenseStatus } from '../../kernel/domain/license-status.js';
import { inScope, type Scope } from '../../kernel/domain/scope.js';
import type { License, Pool, Student } from '../../kernel/domain/types.js';
import { BadRequestError, NotFoundError } from '../../kernel/licensing/errors.js';
import type { CallOptions, LicensingClient } from '../../kernel/licensing/types.js';
import { currentScope, unscoped } from '../../kernel/services/request-scope.js';
import { inSlices, yieldToLoop } from '../../kernel/services/turns.js';
import type { ProgressStore } from '../../progress/index.js';

/** The header row: the one column list (`EXPORT_COLUMNS`, domain/csv.ts), which the export's DM lists too. */
export const EXPORT_HEADER = EXPORT_COLUMNS;

/** Where the export is, after each request: pages read and the pages it expects in all. */
export interface ExportProgress {
  pagesDone: number;
  /** An estimate until the walks end: it grows when a walk runs longer than expected. */
  pagesTotal: number;
  /** Time left at the pace seen so far; undefined before the pace is known. */
  msLeft: number | undefined;
}

export type ExportPath = 'account' | 'pool-per-student' | 'pool-students-walk';

export interface LicenseExport {
  /** The CSV file; the caller deletes it (`discard`) once uploaded. */
  file: string;
  bytes: number;
  rows: number;
  filename: string;
  /** The pool, when the export was for one. */
  pool?: Pool;
  /** Which way the rows were read (see above). */
  path: ExportPath;
  /** Licensing requests made (pages and single reads; the pools list included). */
  requests: number;
  /** Removes the temporary file and its folder; never throws. */
  discard(): Promise<void>;
}

export interface ExportOptions {
  poolId?: string | undefined;
  now: Date;
  onProgress?: (progress: ExportProgress) => void;
  /** Where the temporary file goes; default the OS temp folder. */
  tmpDir?: string;
  /** The recorded progress (docs/progress.md), for the "last progress" column; absent: the column is empty. */
  progressStore?: Pick<ProgressStore, 'holders'>;
}

const BACKGROUND: CallOptions = { priority: 'background' };
/** The API's default page size (licensing-api.md, Limits), used when a larger one is refused. */
const DEFAULT_PAGE_SIZE = 10;
/** A guard against a list that never ends. */
const MAX_PAGES = 100_000;
/** Lines built or written between two turns of the event loop. */
const CHUNK = 500;
/** One collator for every comparison: creating one per localeCompare call cost seconds at 50,000 rows. */
/** Built at first use, not at load (start-up: it loads ICU's collation data). */
let collatorInstance: Intl.Collator | undefined;
const collator = () => (collatorInstance ??= new Intl.Collator('en', { numeric: true }));

const day = (iso: string | null | undefined) => (iso ? dayOf(iso) : '');

/**
 * Course progress by license id, kept small (a number per license; the completion day only for the
 * few completed courses; titles once per course): at 50,000 licenses it is the one thing the whole
 * account's export holds from start to end.
 */
class ProgressBook {
  readonly progress = new Map<string, number>();
  readonly completed = new Map<string, string>();
  readonly titles = new Map<string, string>();

  keep(students: readonly Student[]): void {
    for (const s of students) {
      for (const c of s.courses) {
        this.progress.set(c.licenseId, c.progress);
        if (c.completed) this.completed.set(c.licenseId, day(c.completed));
        if (!this.titles.has(c.id)) this.titles.set(c.id, c.title);
      }
    }
  }

  clear(): void {
    this.progress.clear();
    this.completed.clear();
    this.titles.clear();
  }
}

/** The day of the last change seen, by license id, for one page of licenses (never the whole account). */
async function lastChanges(
  store: Pick<ProgressStore, 'holders'> | undefined,
  licenses: readonly License[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!store || licenses.length === 0) return out;
  const rows = await store.holders({ licenseIds: licenses.map((l) => l.id), includeInactive: true });
  // A change seen after the first sighting; first_seen only is no change License Desk knows of.
  for (const r of rows) if (r.changedAt !== r.firstSeenAt) out.set(r.licenseId, day(r.changedAt));
  return out;
}

function rowOf(
  l: License,
  pools: Map<string, Pool>,
  book: ProgressBook,
  now: Date,
  last?: Map<string, string>,
): CsvValue[] {
  return [
    l.student.name,
    l.student.email,
    pools.get(l.poolId)?.course.title ?? book.titles.get(l.courseId) ?? `course ${l.courseId}`,
    l.poolId,
    l.id,
    day(l.start),
    day(l.end),
    licenseStatus(l, now),
    book.progress.get(l.id) ?? null,
    book.completed.get(l.id) ?? '',
    last?.get(l.id) ?? '',
  ];
}

/**
 * The whole account's lines, parked on disk until the walk ends (the list endpoint gives licenses
 * in id order, the file wants pool then start). The pools, in export order, are split into GROUPS
 * runs of neighbours, one small file each; each record is the JSON of [pool rank, start ms, seq,
 * pool id, CSV line]. Buffers are written out once they hold FLUSH_BYTES in all (at most GROUPS
 * appends), so memory stays flat whatever the account's size; at the end one group at a time is
 * read back, sorted and handed on.
 */
const GROUPS = 32;
const FLUSH_BYTES = 256 * 1024;

type Parked = [rank: number, start: number, seq: number, poolId: string, line: string];

function createParking(dir: string, poolsInOrder: readonly string[]) {
  const rank = new Map(poolsInOrder.map((id, i) => [id, i]));
  const perGroup = Math.max(1, Math.ceil(poolsInOrder.length / GROUPS));
  const buffers: string[][] = Array.from({ length: GROUPS + 1 }, () => []);
  const fileOf = (group: number) => join(dir, `group-${group}.jsonl`);
  const used = new Set<number>();
  let buffered = 0;
  async function flush(): Promise<void> {
    for (const [group, records] of buffers.entries()) {
      if (records.length === 0) continue;
      await appendFile(fileOf(group), records.join(''), 'utf8');
      buffers[group] = [];
    }
    buffered = 0;
  }
  return {
    async add(poolId: string, start: number, seq: number, line: string): Promise<void> {
      // A pool missing from the pools list goes last, after every known one.
      const r = rank.get(poolId) ?? poolsInOrder.length;
      const group = Math.min(GROUPS, Math.floor(r / perGroup));
      const record = `${JSON.stringify([r, start, seq, poolId, line] satisfies Parked)}\n`;
      buffers[group]?.push(record);
      used.add(group);
      buffered += record.length;
      if (buffered > FLUSH_BYTES) await flush();
    },
    flush,
    groups: () => [...used].sort((x, y) => x - y),
    /** The group's lines in export order (pool, start, then the order read); its file is removed. */
    async take(group: number): Promise<string[]> {
      const file = fileOf(group);
      const text = (await readFile(file, 'utf8')).split('\n');
      await rm(file, { force: true });
      // Parsed a slice per turn: a group holds every line of its pools (all of them when an account
      // has fewer pools than groups).
      const records: Parked[] = [];
      await inSlices(text.length, (from, to) => {
        for (let i = from; i < to; i += 1) if (text[i]) records.push(JSON.parse(text[i] as string) as Parked);
      });
      await yieldToLoop();
      // The rank differs for every known pool; the collator only orders pools missing from the list.
      records.sort(
        (x, y) => x[0] - y[0] || (x[3] === y[3] ? 0 : collator().compare(x[3], y[3])) || x[1] - y[1] || x[2] - y[2],
      );
      await yieldToLoop();
      return records.map((r) => r[4]);
    },
  };
}

const startOf = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/**
 * The requests of one export: the page size in use, the pages read and expected (its progress), and
 * the walk of a paged list.
 */
class Walker {
  pageSize: number;
  requests = 0;
  pagesDone = 0;
  /** An estimate until the walks end: set by each step, and raised when a walk runs longer. */
  pagesTotal = 1;
  private readonly started = Date.now();

  constructor(
    licensing: LicensingClient,
    private readonly onProgress: ExportOptions['onProgress'],
  ) {
    this.pageSize = licensing.pageSize();
  }

  /** One request made: counted, and the progress told. */
  tick(): void {
    this.pagesDone += 1;
    this.requests += 1;
    this.pagesTotal = Math.max(this.pagesTotal, this.pagesDone);
    const perPage = (Date.now() - this.started) / this.pagesDone;
    this.onProgress?.({
      pagesDone: this.pagesDone,
      pagesTotal: this.pagesTotal,
      msLeft: this.pagesDone >= 2 ? perPage * (this.pagesTotal - this.pagesDone) : undefined,
    });
  }

  /**
   * Every page of a list, one request at a time, handing each page on as it comes. Like the client's
   * own walk (licensing/paginate.ts) it ends on a short page, stops if the server sends the same page
   * again (a server that ignores `page`), and if the first page's size is refused with a 400, walks
   * at the API's default of 10 instead.
   */
  async walk<T extends { id: string }>(
    fetchPage: (page: number) => Promise<T[]>,
    each: (items: T[]) => Promise<void> | void,
  ): Promise<void> {
    let previousFirst: string | undefined;
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      let items: T[];
      try {
        items = await fetchPage(page);
      } catch (error) {
        if (page === 1 && error instanceof BadRequestError && this.pageSize > DEFAULT_PAGE_SIZE) {
          this.pageSize = DEFAULT_PAGE_SIZE;
          this.tick();
          page = 0;
          continue;
        }
        throw error;
      }
      if (items.length > 0 && items[0]?.id === previousFirst) return;
      previousFirst = items[0]?.id;
      // A page that reached its size means there may be one more: count it before it is read.
      if (items.length >= this.pageSize) this.pagesTotal = Math.max(this.pagesTotal, this.pagesDone + 2);
      this.tick();
      await each(items);
      if (items.length < this.pageSize) return;
    }
  }
}

/** The CSV file being written, waiting for the stream to drain when it must. */
function csvFile(file: string) {
  const out = createWriteStream(file, { encoding: 'utf8' });
  let bytes = 0;
  return {
    bytes: () => bytes,
    async write(text: string): Promise<void> {
      bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    },
    async end(): Promise<void> {
      out.end();
      await once(out, 'finish');
    },
    destroy: () => out.destroy(),
  };
}

/** What every step of one export shares. */
interface ExportRun {
  licensing: LicensingClient;
  opts: ExportOptions;
  walker: Walker;
  /** The pools of the person's scope (request-scope.ts): the rows it keeps. */
  scope: Scope;
  pools: Map<string, Pool>;
  progress: ProgressBook;
  /** The temporary folder (the parked lines go there too). */
  dir: string;
  write: (text: string) => Promise<void>;
  /** The pages of a walk of every student, estimated from the seats assigned across the account. */
  walkPagesEstimate: number;
}

export async function exportLicenses(licensing: LicensingClient, opts: ExportOptions): Promise<LicenseExport> {
  const walker = new Walker(licensing, opts.onProgress);
  const poolList = await licensing.pools.list(BACKGROUND);
  walker.requests += 1;
  const pools = new Map(poolList.map((p) => [p.id, p]));
  const pool = opts.poolId === undefined ? undefined : pools.get(opts.poolId);
  if (opts.poolId !== undefined && !pool) throw new NotFoundError({ endpoint: 'GET /v1/pool/{id}' });
  const assigned = poolList.reduce((n, p) => n + Math.max(0, p.assignedLicenses), 0);
  const walkPagesEstimate = Math.max(1, Math.ceil(assigned / walker.pageSize));

  const dir = await mkdtemp(join(opts.tmpDir ?? tmpdir(), 'license-desk-export-'));
  const file = join(dir, 'export.csv');
  const discard = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  const out = csvFile(file);
  const run: ExportRun = {
    licensing,
    opts,
    walker,
    scope: currentScope(),
    pools,
    progress: new ProgressBook(),
    dir,
    write: out.write,
    walkPagesEstimate,
  };
  let done: { rows: number; path: ExportPath };
  try {
    await out.write(`${CSV_BOM}${csvLine(EXPORT_HEADER)}`);
    // The walks read every page as it is (a narrowed page would end them early); the rows keep to the pools
    // the list above kept, those of the person's scope (request-scope.ts).
    done = await unscoped(async () =>
      pool ? await exportPool(run, pool) : { rows: await exportAccount(run), path: 'account' as const },
    );
    await out.end();
  } catch (error) {
    out.destroy();
    await discard();
    throw error;
  }
  const stamp = opts.now.toISOString().slice(0, 10);
  return {
    file,
    bytes: out.bytes(),
    rows: done.rows,
    filename: pool ? `licenses-pool-${pool.id.replace(/[^\w-]/g, '_')}-${stamp}.csv` : `licenses-${stamp}.csv`,
    ...(pool ? { pool } : {}),
    path: done.path,
    requests: walker.requests,
    discard,
  };
}

/** One pool: its own pages, the cheaper way to its students' progress, then its lines by start. */
async function exportPool(run: ExportRun, pool: Pool): Promise<{ rows: number; path: ExportPath }> {
  const { walker, licensing } = run;
  walker.pagesTotal = Math.max(1, Math.ceil(Math.max(0, pool.assignedLicenses) / walker.pageSize));
  const licenses: License[] = [];
  await walker.walk(
    (page) => licensing.pools.licenses(pool.id, { page, pageSize: walker.pageSize, includeInactive: true }, BACKGROUND),
    (items) => {
      licenses.push(...items);
    },
  );
  const path = await readPoolProgress(run, licenses);
  const lines = licenses.map((l, seq) => ({ start: startOf(l.start), seq, l }));
  lines.sort((a, b) => a.start - b.start || a.seq - b.seq);
  let rows = 0;
  for (let i = 0; i < lines.length; i += CHUNK) {
    const chunk = lines.slice(i, i + CHUNK);
    const last = await lastChanges(
      run.opts.progressStore,
      chunk.map(({ l }) => l),
    );
    await run.write(chunk.map(({ l }) => csvLine(rowOf(l, run.pools, run.progress, run.opts.now, last))).join(''));
    rows += Math.min(CHUNK, lines.length - i);
    await yieldToLoop();
  }
  return { rows, path };
}

/** The progress of a pool's students: one read per student, or the walk of every student, whichever costs less. */
async function readPoolProgress(run: ExportRun, licenses: readonly License[]): Promise<ExportPath> {
  const { walker, licensing, progress } = run;
  const emails = [...new Set(licenses.map((l) => l.student.email))];
  if (licenses.length > 0 && emails.length <= run.walkPagesEstimate) {
    walker.pagesTotal = walker.pagesDone + emails.length;
    for (const email of emails) {
      try {
        progress.keep([await licensing.students.find({ email }, { ...BACKGROUND, includeInactive: true })]);
      } catch (error) {
        // A student the service cannot find by e-mail just has no progress in the file.
        if (!(error instanceof NotFoundError)) throw error;
      }
      walker.tick();
    }
    return 'pool-per-student';
  }
  if (licenses.length > 0) {
    walker.pagesTotal = walker.pagesDone + run.walkPagesEstimate;
    await walker.walk(
      (page) => licensing.students.list({ page, pageSize: walker.pageSize, includeInactive: true }, BACKGROUND),
      (items) => progress.keep(items),
    );
    return 'pool-students-walk';
  }
  return 'account';
}

/** The whole account: the students' walk, the licenses' walk parked on disk, then the parked lines in order. */
async function exportAccount(run: ExportRun): Promise<number> {
  const { walker, licensing, progress, pools } = run;
  // Students first (their pages carry each license's progress), then the licenses: about as many
  // pages each, estimated from the seats assigned.
  walker.pagesTotal = 2 * run.walkPagesEstimate;
  await walker.walk(
    (page) => licensing.students.list({ page, pageSize: walker.pageSize, includeInactive: true }, BACKGROUND),
    (items) => progress.keep(items),
  );
  walker.pagesTotal = Math.max(walker.pagesTotal, walker.pagesDone + run.walkPagesEstimate);
  const parking = createParking(run.dir, [...pools.keys()].sort(collator().compare));
  let seq = 0;
  await walker.walk(
    (page) => licensing.licenses.list({ page, pageSize: walker.pageSize, includeInactive: true }, BACKGROUND),
    async (items) => {
      const last = await lastChanges(run.opts.progressStore, items);
      for (const l of items) {
        if (!inScope(run.scope, l.poolId)) continue;
        await parking.add(l.poolId, startOf(l.start), seq++, csvLine(rowOf(l, pools, progress, run.opts.now, last)));
      }
      await yieldToLoop();
    },
  );
  progress.clear();
  await parking.flush();
  let rows = 0;
  let batch: string[] = [];
  for (const group of parking.groups()) {
    for (const line of await parking.take(group)) {
      batch.push(line);
      rows += 1;
      if (batch.length >= CHUNK) {
        await run.write(batch.join(''));
        batch = [];
        await yieldToLoop();
      }
    }
  }
  if (batch.length > 0) await run.write(batch.join(''));
  return rows;
}
