/**
 * SFTP host keys (issue 25, outgoing connections verified): `sftp_connections.host_key` is the OpenSSH
 * SHA256 fingerprint (`SHA256:<base64 without padding>`) the server's host key must have. Null: not pinned
 * yet; the worker pins the key it meets on its first successful connection (trust on first use).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sftp_connections', (t) => {
    t.text('host_key').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sftp_connections', (t) => {
    t.dropColumn('host_key');
  });
}
