/**
 * The email_upload_connections table: e-mail upload connections of EMAIL_UPLOAD nodes (IMAP mailbox polled on a cron). The stored password is
 * never returned: responses carry the mask, and an update sending null or the mask keeps it. It is stored
 * sealed (db/crypto.ts): a kept password keeps its stored ciphertext, a new one is sealed here.
 */
import type { Knex } from 'knex';
import {
  DEFAULT_EMAIL_FOLDER,
  DEFAULT_IMAP_PORT,
  keepOrReplaceSecret,
  maskSecret,
  normalizeCron,
} from '../../domain/integrations';
import type { EmailConnectionDTO, EmailContentType, ImapPort } from '../../domain/integration-types';
import { sealValue } from '../crypto';

export interface EmailConnectionRow {
  id: number;
  node_id: number;
  imap_host: string;
  imap_port: number;
  address: string;
  password: string;
  folder: string;
  content_type: string;
  cron: string | null;
}

export interface EmailConnectionInput {
  imapHost: string;
  imapPort?: number | null;
  address: string;
  password?: string | null;
  folder?: string | null;
  contentType?: string | null;
  cron?: string | null;
}

export const toEmailConnectionDTO = (r: EmailConnectionRow): EmailConnectionDTO => ({
  id: r.id,
  nodeId: r.node_id,
  imapHost: r.imap_host,
  imapPort: r.imap_port as ImapPort,
  address: r.address,
  password: maskSecret(r.password),
  folder: r.folder,
  contentType: r.content_type as EmailContentType,
  cron: r.cron,
});

function columns(input: EmailConnectionInput, storedPassword: string | null) {
  const replaced = keepOrReplaceSecret(input.password, null);
  return {
    imap_host: input.imapHost.trim(),
    imap_port: input.imapPort ?? DEFAULT_IMAP_PORT,
    address: input.address.trim(),
    password:
      replaced === null ? storedPassword : sealValue('email_upload_connections', 'password', replaced),
    folder: input.folder?.trim() || DEFAULT_EMAIL_FOLDER,
    content_type: input.contentType || 'MESSAGE',
    cron: normalizeCron(input.cron),
  };
}

export async function listEmailConnections(knex: Knex, nodeId: number): Promise<EmailConnectionDTO[]> {
  return (await knex('email_upload_connections').where({ node_id: nodeId }).orderBy('id')).map(
    toEmailConnectionDTO,
  );
}

/** The node's connections as stored (password sealed), by id. */
export async function emailConnectionsOfNode(knex: Knex, nodeId: number): Promise<EmailConnectionRow[]> {
  return knex('email_upload_connections').where('node_id', nodeId).orderBy('id');
}

export async function findEmailConnection(knex: Knex, id: number): Promise<EmailConnectionRow | undefined> {
  return knex('email_upload_connections').where({ id }).first();
}

export async function createEmailConnection(
  knex: Knex,
  nodeId: number,
  input: EmailConnectionInput,
): Promise<EmailConnectionDTO> {
  const [row] = await knex('email_upload_connections')
    .insert({ node_id: nodeId, ...columns(input, null) })
    .returning('*');
  return toEmailConnectionDTO(row);
}

export async function updateEmailConnection(
  knex: Knex,
  stored: EmailConnectionRow,
  input: EmailConnectionInput,
): Promise<EmailConnectionDTO> {
  const [row] = await knex('email_upload_connections')
    .where({ id: stored.id })
    .update(columns(input, stored.password))
    .returning('*');
  return toEmailConnectionDTO(row);
}

export async function deleteEmailConnection(knex: Knex, id: number): Promise<boolean> {
  return (await knex('email_upload_connections').where({ id }).delete()) > 0;
}

/** The crons of the node's e-mail connections (null: the default poll). */
export async function emailConnectionCrons(knex: Knex, nodeId: number): Promise<(string | null)[]> {
  return knex('email_upload_connections').where('node_id', nodeId).pluck('cron');
}
