/**
 * Rewrites every credential column (db/crypto.ts SEALED_COLUMNS) row by row, the tables locked against writes: seals clear
 * values (migration 011), re-seals every value with the keyring's current key (key rotation), or opens
 * them back to clear text (migration 011 down). Call it inside a transaction to make the change all or
 * nothing; knex migrations run in one.
 */
import type { Knex } from 'knex';
import { isSealed, Keyring, dataKeyring, SEALED_COLUMNS, type SealedTable } from './crypto';

export interface ResealOptions {
  /** The keyring to open and seal with; the process's one by default. */
  keyring?: Keyring;
  /** Seal clear values only, leave sealed ones as they are. */
  onlyPlain?: boolean;
  /** Write clear text instead of sealing. */
  decrypt?: boolean;
  /** Only these tables (default: every table of SEALED_COLUMNS). */
  tables?: readonly SealedTable[];
}

/** Counts of values rewritten per `table.column`. */
export async function resealColumns(
  knex: Knex,
  options: ResealOptions = {},
): Promise<Record<string, number>> {
  const ring = options.keyring ?? dataKeyring();
  const counts: Record<string, number> = {};
  const tables = [...(options.tables ?? (Object.keys(SEALED_COLUMNS) as SealedTable[]))];
  // Writers wait until the end of the transaction (readers do not): no value is written meanwhile under a
  // key the rewrite does not see. Outside a transaction the lock would end at once: callers use one.
  await knex.raw(`lock table ${tables.map(() => '??').join(', ')} in share row exclusive mode`, tables);
  for (const table of tables) {
    const columns: readonly string[] = SEALED_COLUMNS[table];
    const rows: Record<string, unknown>[] = await knex(table)
      .select('id', ...columns)
      .orderBy('id');
    for (const row of rows) {
      const update: Record<string, string> = {};
      for (const column of columns) {
        const value = row[column];
        if (typeof value !== 'string' || value === '') continue;
        const context = `${table}.${column}`;
        const sealed = isSealed(value);
        if (options.onlyPlain && sealed) continue;
        if (options.decrypt && !sealed) continue;
        const clear = sealed ? ring.open(value, context) : value;
        update[column] = options.decrypt ? clear : ring.seal(clear, context);
        counts[context] = (counts[context] ?? 0) + 1;
      }
      if (Object.keys(update).length)
        await knex(table)
          .where('id', row.id as number)
          .update(update);
    }
  }
  return counts;
}
