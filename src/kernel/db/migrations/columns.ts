/**
 * What the migrations share: the two engines and the column types that differ between them. A
 * migration sees the database as it was when it was written, not as schema.ts describes it today.
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: a migration sees the database as it was then, not schema.ts.
export type AnyDb = Kysely<any>;

/** Column types that differ between the two databases. */
export function types(dialect: Dialect) {
  return {
    serial: dialect === 'postgres' ? ('serial' as const) : ('integer' as const),
    real: dialect === 'postgres' ? ('double precision' as const) : ('real' as const),
  };
}

/** An autoincremented primary key (PostgreSQL's serial is one already). */
export function serialKey(dialect: Dialect) {
  return (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
}
