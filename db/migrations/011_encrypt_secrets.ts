/**
 * Seals the credential columns written in clear before encryption at rest (db/crypto.ts SEALED_COLUMNS):
 * process secrets, IMAP and SFTP passwords, SFTP private keys, cloud-drive tokens. Idempotent: values
 * already sealed are left alone, so a rerun or a row sealed by a newer process changes nothing.
 */
import type { Knex } from 'knex';
import { resealColumns } from '../reseal';

export async function up(knex: Knex): Promise<void> {
  await resealColumns(knex, { onlyPlain: true });
}

/** Down opens the values again (clear text), for a rollback to a version that reads them in clear. */
export async function down(knex: Knex): Promise<void> {
  await resealColumns(knex, { decrypt: true });
}
