/**
 * What the migrations share: the two engines, and the schema text a migration is written in. A
 * migration sees the database as it was when it was written, not as schema.ts describes it today.
 *
 * Schema text is one statement a line (a line ending in a comma goes on), in SQL's words:
 *   table outbox (id serial, key text unique, attempts integer not null default 0, …)
 *   table bulk_rows (job_id text not null references bulk_jobs.id on delete cascade, …, primary key bulk_rows_pk (job_id, line))
 *   index outbox_due on outbox (state, due_at)
 * Column types are `text`, `integer`, `real` (double precision on PostgreSQL) and `serial` (an
 * autoincremented primary key on either engine). Each line is built through Kysely's schema builder, so
 * the SQL sent is what the builder calls written out by hand would send.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was then, not schema.ts.
export type AnyDb = Kysely<any>;

/** One migration's way up (on the engine it runs on) and its way back. */
export interface Step {
  up(db: AnyDb, dialect: Dialect): Promise<void>;
  down(db: AnyDb): Promise<void>;
}

type Table = { kind: 'table'; name: string; columns: string[]; primaryKey?: { name: string; columns: string[] } };
type Statement = Table | { kind: 'index'; name: string; table: string; columns: string[] };

/** The comma-separated parts of a list, not splitting inside parentheses. */
function parts(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter((p) => p !== '');
}

/** The groups of a pattern's match, or null where the text is not of that pattern. */
function match(pattern: RegExp, text: string): string[] | null {
  const found = pattern.exec(text);
  return found ? found.slice(1).map((group) => group ?? '') : null;
}

const TABLE = /^table (\w+) \((.*)\)$/;
const INDEX = /^index (\w+) on (\w+) \((.*)\)$/;
const PRIMARY_KEY = /^primary key (\w+) \((.*)\)$/;

/** One `table` line: its columns, and the named primary key over several columns if it has one. */
function table(name: string, list: string): Table {
  const defs = parts(list);
  const [keyName, keyColumns] = defs.map((d) => match(PRIMARY_KEY, d)).find((m) => m !== null) ?? [];
  const columns = defs.filter((d) => !PRIMARY_KEY.test(d));
  if (keyName === undefined) return { kind: 'table', name, columns };
  return { kind: 'table', name, columns, primaryKey: { name: keyName, columns: parts(keyColumns ?? '') } };
}

/** The statements of a schema text, or an error naming the line that is not one. */
function parse(text: string): Statement[] {
  return text
    .replace(/,\s*\n\s*/g, ', ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line): Statement => {
      const [indexName = '', on = '', indexColumns = ''] = match(INDEX, line) ?? [];
      if (indexName !== '') return { kind: 'index', name: indexName, table: on, columns: parts(indexColumns) };
      const [tableName = '', list = ''] = match(TABLE, line) ?? [];
      if (tableName === '') throw new Error(`Not a table or index line in a migration: ${line}`);
      return table(tableName, list);
    });
}

/** What one column's words ask of the builder. */
function constraints(words: string, dialect: Dialect) {
  return (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => {
    let out = c;
    if (/\bprimary key\b/.test(words)) out = out.primaryKey();
    if (/\bserial\b/.test(words)) out = dialect === 'postgres' ? out.primaryKey() : out.primaryKey().autoIncrement();
    if (/\bunique\b/.test(words)) out = out.unique();
    if (/\bnot null\b/.test(words)) out = out.notNull();
    const [fallback] = match(/\bdefault (\d+)\b/, words) ?? [];
    if (fallback !== undefined) out = out.defaultTo(Number(fallback));
    const [target, cascade] = match(/\breferences (\w+\.\w+)( on delete cascade)?/, words) ?? [];
    if (target !== undefined) out = cascade ? out.references(target).onDelete('cascade') : out.references(target);
    return out;
  };
}

const TYPES = {
  sqlite: { text: 'text', integer: 'integer', real: 'real', serial: 'integer' },
  postgres: { text: 'text', integer: 'integer', real: 'double precision', serial: 'serial' },
} as const;

async function createTable(db: AnyDb, dialect: Dialect, spec: Table) {
  // Column names are only known at run time here, so the builder is typed over any name.
  let builder: CreateTableBuilder<string, string> = db.schema.createTable(spec.name);
  for (const column of spec.columns) {
    const [name = '', type = ''] = column.split(/\s+/);
    if (!Object.hasOwn(TYPES[dialect], type)) throw new Error(`Unknown column type in a migration: ${column}`);
    builder = builder.addColumn(name, TYPES[dialect][type as keyof typeof TYPES.sqlite], constraints(column, dialect));
  }
  if (spec.primaryKey) builder = builder.addPrimaryKeyConstraint(spec.primaryKey.name, spec.primaryKey.columns);
  await builder.execute();
}

/** Runs a schema text's statements in order. */
export async function runSchema(db: AnyDb, dialect: Dialect, text: string): Promise<void> {
  for (const statement of parse(text)) {
    if (statement.kind === 'table') await createTable(db, dialect, statement);
    else await db.schema.createIndex(statement.name).on(statement.table).columns(statement.columns).execute();
  }
}

/** Undoes a schema text: its tables dropped newest first, with its indexes on tables it did not create. */
export async function undoSchema(db: AnyDb, text: string): Promise<void> {
  const statements = parse(text);
  const created = new Set(statements.flatMap((s) => (s.kind === 'table' ? [s.name] : [])));
  for (const statement of statements.reverse()) {
    if (statement.kind === 'table') await db.schema.dropTable(statement.name).execute();
    else if (!created.has(statement.table)) await db.schema.dropIndex(statement.name).execute();
  }
}

/** A migration that is schema text alone. */
export function schemaStep(text: string): Step {
  return { up: (db, dialect) => runSchema(db, dialect, text), down: (db) => undoSchema(db, text) };
}
