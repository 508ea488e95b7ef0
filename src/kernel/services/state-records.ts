/**
 * Small named JSON documents in the database's `state` table (docs/records.md): the alert memory and
 * the like. One implementation for SQLite and PostgreSQL, with the interface the DATA_DIR state files
 * had (`JsonFile`): read() reads afresh (another replica may have changed it), update()
 * is an atomic read-modify-write in one transaction (the row is locked on PostgreSQL; SQLite has one
 * writer), so two replicas' updates never lose one another.
 */
import type { Transaction } from 'kysely';
import type { Records } from '../db/open.js';
import type { Database } from '../db/schema.js';

export interface StateDocumentOptions<T> {
  empty: () => T;
  /** Checks what was read; undefined when it is not a T (the document then reads as empty). */
  parse: (value: unknown) => T | undefined;
  now?: () => Date;
}

/** A JSON document of the records: read it, or change it atomically. */
export interface JsonFile<T> {
  /** The current value, read afresh. */
  read(): Promise<T>;
  /** Applies `change` to the value and stores it, atomic against other writers, before resolving. */
  update(change: (value: T) => void): Promise<T>;
}

/** A document of the `state` table: a JsonFile that can also change only if, together with other rows. */
export interface StateDocument<T> extends JsonFile<T> {
  /**
   * update() in the same locked transaction, for a change that must commit with other rows or not at
   * all: `change` returns false to leave the document as it is (nothing written); otherwise the value is
   * stored and `alongside` runs in that transaction (an outbox row). True when written.
   */
  updateIf(change: (value: T) => boolean, alongside?: (trx: Transaction<Database>) => Promise<void>): Promise<boolean>;
}

export function stateDocument<T>(records: Records, key: string, opts: StateDocumentOptions<T>): StateDocument<T> {
  const now = opts.now ?? (() => new Date());
  const decode = (raw: string | undefined): T => {
    if (raw === undefined) return opts.empty();
    try {
      return opts.parse(JSON.parse(raw)) ?? opts.empty();
    } catch {
      return opts.empty();
    }
  };
  let created = false;
  return {
    async read() {
      const row = await records.db.selectFrom('state').select('value').where('key', '=', key).executeTakeFirst();
      return decode(row?.value);
    },
    async update(change) {
      return write((value) => {
        change(value);
        return true;
      }).then((r) => r.value);
    },
    async updateIf(change, alongside) {
      return (await write(change, alongside)).written;
    },
  };

  async function write(
    change: (value: T) => boolean,
    alongside?: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<{ value: T; written: boolean }> {
    // The row exists before the transaction, so that it can be locked (two first writers on
    // PostgreSQL would otherwise both find it absent).
    if (!created) {
      await records.db
        .insertInto('state')
        .values({ key, value: JSON.stringify(opts.empty()), updated_at: now().toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      created = true;
    }
    return records.db.transaction().execute(async (trx) => {
      let read = trx.selectFrom('state').select('value').where('key', '=', key);
      if (records.dialect === 'postgres') read = read.forUpdate();
      const row = await read.executeTakeFirst();
      const value = decode(row?.value);
      if (!change(value)) return { value, written: false };
      const set = { value: JSON.stringify(value), updated_at: now().toISOString() };
      if (row) await trx.updateTable('state').set(set).where('key', '=', key).execute();
      else
        await trx
          .insertInto('state')
          .values({ key, ...set })
          .execute();
      await alongside?.(trx);
      return { value, written: true };
    });
  }
}

/** Deletes a document (the in-process sandbox's alert memory at each start). */
export async function dropStateDocument(records: Records, key: string): Promise<void> {
  await records.db.deleteFrom('state').where('key', '=', key).execute();
}
