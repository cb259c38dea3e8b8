/**
 * Seals the credential columns written in clear before encryption at rest (db/crypto.ts SEALED_COLUMNS):
 * process secrets, IMAP and SFTP passwords, SFTP private keys, cloud-drive tokens. Idempotent: values
 * already sealed are left alone, so a rerun or a row sealed by a newer process changes nothing.
 */
import type { Knex } from 'knex';
import { SEALED_COLUMNS, type SealedTable } from '../crypto';
import { resealColumns } from '../reseal';

/** Tables of credential columns added by later migrations (webhooks, 031) do not exist yet on a fresh database. */
async function existingTables(knex: Knex): Promise<SealedTable[]> {
  const out: SealedTable[] = [];
  for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[])
    if (await knex.schema.hasTable(table)) out.push(table);
  return out;
}

export async function up(knex: Knex): Promise<void> {
  await resealColumns(knex, { onlyPlain: true, tables: await existingTables(knex) });
}

/** Down opens the values again (clear text), for a rollback to a version that reads them in clear. */
export async function down(knex: Knex): Promise<void> {
  await resealColumns(knex, { decrypt: true, tables: await existingTables(knex) });
}
