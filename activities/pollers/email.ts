/**
 * E-mail upload poller (spec 3, "E-mail upload"; issue 5): every connection of the node is polled over IMAP
 * (imapflow) on each tick of the node's schedule; the connections' own cron is not used. The host goes
 * through the net guard and the checked address is connected to (TLS names checked against the configured
 * host); port 993 is TLS, any other port plain IMAP upgraded by STARTTLS when the server offers it.
 *
 * The folder is opened read-only (EXAMINE) and fetched with BODY.PEEK, so mails are neither marked read nor
 * moved or deleted: the mailbox stays the user's. A mail is identified by `imap:<connection>:<uidValidity>:
 * <uid>` (a new UIDVALIDITY renumbers the folder, so its mails are new items then).
 * - MESSAGE: each new mail is imported as `<subject, else message id, else mail-<uid>>.eml` with its raw
 *   RFC 822 bytes.
 * - ATTACHMENT: the attachments are read from the BODYSTRUCTURE (parts with an attachment disposition or a
 *   file name, and forwarded messages), keyed `<mail key>:att:<n>` (n counts from 1 in structure order), and
 *   only the parts not imported yet are downloaded, decoded. A mail without attachments imports nothing and
 *   costs only its structure on later polls (there is no item to record it by).
 * Downloads stop one byte past the upload limit, so an oversized mail or part is recorded REJECTED for its
 * size by importFile without being fetched whole. A connection that fails (refused address, network, TLS,
 * sign-in, missing folder) is reported as `Connection <address>@<host>:<port>: <reason>` and the next one is
 * polled; a mail that fails is reported the same way with its UID and the poll goes on with the next mail.
 */
import net from 'node:net';
import type { Readable } from 'node:stream';
import { ImapFlow, type MessageStructureObject } from 'imapflow';
import { KINDS } from '../../domain/upload-check';
import { openValue } from '../../db/crypto';
import { OutboundRefused, resolveOutbound } from '../../server/net-guard';
import { refusalMessage } from '../actions/context';
import type { PollContext, Poller, PollOutcome } from './types';
import { emailConnectionsOfNode } from '../../db/queries/email-connections';

const IMAP_TIMEOUT_MS = 30_000;
/** The upload limit when the deployment sets none (as import.ts). */
const DOWNLOAD_CHUNK_BYTES = 1024 * 1024;

interface EmailConnection {
  id: number;
  host: string;
  port: number;
  address: string;
  /** As stored: sealed. */
  password: string;
  folder: string;
  contentType: 'MESSAGE' | 'ATTACHMENT';
}

async function loadConnections(ctx: PollContext): Promise<EmailConnection[]> {
  const rows = await emailConnectionsOfNode(ctx.deps.knex, ctx.node.id);
  return rows.map((r) => ({
    id: Number(r.id),
    host: String(r.imap_host).trim(),
    port: Number(r.imap_port),
    address: String(r.address).trim(),
    password: r.password,
    folder: r.folder?.trim() || 'INBOX',
    contentType: r.content_type === 'ATTACHMENT' ? 'ATTACHMENT' : 'MESSAGE',
  }));
}

/** What a failed IMAP call says: the server's words when it answered, the socket's error otherwise. */
export function imapReason(err: unknown): string {
  const e = err as { message?: string; responseText?: string; authenticationFailed?: boolean };
  // Dovecot appends its timing ("(0.001 + 0.000 secs)."): not for users.
  const server = e.responseText?.replace(/\s*\(\d+\.\d+ \+ [^)]*secs\)\.?\s*$/, '').trim();
  if (e.authenticationFailed) return `sign-in failed${server ? ` (${server})` : ''}`;
  return server || e.message || String(err);
}

/** A file name without path separators, at most 150 characters before the extension. */
function baseName(text: string): string {
  const clean = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.slice(0, 150).trim();
}

/** `<subject>.eml`, else `<message id>.eml`, else `mail-<uid>.eml`. */
export function emlFilename(mail: { subject?: string; messageId?: string; uid: number }): string {
  const messageId = mail.messageId?.replace(/^<|>$/g, '');
  return `${baseName(mail.subject ?? '') || baseName(messageId ?? '') || `mail-${mail.uid}`}.eml`;
}

export interface AttachmentPart {
  /** The IMAP body part number ("2", "1.3"); "1" for a mail that is one part. */
  part: string;
  filename: string;
}

const extensionOfMime = (mime: string): string =>
  Object.values(KINDS).find((k) => k.mime === mime)?.extensions[0] ?? '';

function partFilename(node: MessageStructureObject, index: number): string {
  const named = node.dispositionParameters?.filename || node.parameters?.name;
  if (named?.trim()) return named.trim();
  if (node.type === 'message/rfc822') return emlFilename({ subject: node.envelope?.subject, uid: index });
  const ext = extensionOfMime(node.type);
  return ext ? `attachment-${index}.${ext}` : `attachment-${index}`;
}

/**
 * The attachments of a mail, in structure order: leaves with an attachment disposition or a file name, and
 * embedded messages (taken whole, not opened). Body text without a name is not an attachment.
 */
export function attachmentParts(structure: MessageStructureObject | undefined): AttachmentPart[] {
  const found: MessageStructureObject[] = [];
  const visit = (node: MessageStructureObject, root: boolean) => {
    if (!root && node.type === 'message/rfc822') found.push(node);
    else if (node.childNodes?.length) for (const child of node.childNodes) visit(child, false);
    else if (
      node.disposition === 'attachment' ||
      node.dispositionParameters?.filename ||
      node.parameters?.name
    )
      found.push(node);
  };
  if (structure) visit(structure, true);
  return found.map((node, i) => ({ part: node.part ?? '1', filename: partFilename(node, i + 1) }));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * TLS of an IMAP connection: 993 is TLS from the start; other ports must upgrade with STARTTLS before the
 * password is sent, unless the server is one the deployment's allowlist trusts (a local test or LAN server).
 */
export function imapTls(port: number, trusted: boolean): { secure: boolean; doSTARTTLS?: boolean } {
  if (port === 993) return { secure: true };
  return trusted ? { secure: false } : { secure: false, doSTARTTLS: true };
}

/** Connects and signs in at the address the net guard admitted; throws with the reason to report. */
async function connect(conn: EmailConnection, allowlist: readonly string[]): Promise<ImapFlow> {
  let address: string;
  let trusted: boolean;
  try {
    ({ address, allowlisted: trusted } = await resolveOutbound(conn.host, allowlist));
  } catch (err) {
    throw new Error(err instanceof OutboundRefused ? refusalMessage(err) : imapReason(err), { cause: err });
  }
  const name = conn.host.replace(/^\[(.*)\]$/, '$1');
  // Stored sealed (db/crypto.ts); an undecryptable one fails this connection only, with the reason.
  const password = openValue('email_upload_connections', 'password', conn.password) ?? '';
  const client = new ImapFlow({
    host: address,
    port: conn.port,
    ...imapTls(conn.port, trusted),
    // The certificate is checked against the configured name, not the IP connected to.
    servername: net.isIP(name) ? undefined : name,
    auth: { user: conn.address, pass: password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: IMAP_TIMEOUT_MS,
    greetingTimeout: IMAP_TIMEOUT_MS,
    socketTimeout: IMAP_TIMEOUT_MS,
  });
  // Socket errors are also emitted; without a listener they would end the worker.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    client.close();
    throw new Error(imapReason(err), { cause: err });
  }
  return client;
}

interface MailboxPoll {
  ctx: PollContext;
  client: ImapFlow;
  conn: EmailConnection;
  uidValidity: string;
  limit: number;
}

/** Imports one mail as an .eml document; returns the number of documents created (0 or 1). */
async function importMessage(p: MailboxPoll, uid: number): Promise<number> {
  const sourceKey = `imap:${p.conn.id}:${p.uidValidity}:${uid}`;
  if (await p.ctx.seen(sourceKey)) return 0;
  const mail = await p.client.fetchOne(
    String(uid),
    { uid: true, envelope: true, source: { start: 0, maxLength: p.limit + 1 } },
    { uid: true },
  );
  if (!mail || !mail.source) return 0; // expunged meanwhile
  const filename = emlFilename({ subject: mail.envelope?.subject, messageId: mail.envelope?.messageId, uid });
  const outcome = await p.ctx.importFile({ sourceKey, filename, bytes: mail.source });
  return outcome.status === 'imported' ? 1 : 0;
}

/** Imports the attachments of one mail not imported yet; returns the number of documents created. */
async function importAttachments(p: MailboxPoll, uid: number, structure?: MessageStructureObject) {
  let imported = 0;
  const parts = attachmentParts(structure);
  for (const [i, att] of parts.entries()) {
    const sourceKey = `imap:${p.conn.id}:${p.uidValidity}:${uid}:att:${i + 1}`;
    if (await p.ctx.seen(sourceKey)) continue;
    const { content } = await p.client.download(String(uid), att.part, {
      uid: true,
      maxBytes: p.limit + 1,
      chunkSize: DOWNLOAD_CHUNK_BYTES,
    });
    if (!content) continue; // expunged meanwhile
    const bytes = await readAll(content);
    const outcome = await p.ctx.importFile({ sourceKey, filename: att.filename, bytes });
    if (outcome.status === 'imported') imported++;
  }
  return imported;
}

/** The UIDs of the folder, with their structure in ATTACHMENT mode, oldest first. */
async function listMails(p: Omit<MailboxPoll, 'uidValidity' | 'limit'>, exists: number) {
  if (exists === 0) return [];
  const query = { uid: true, bodyStructure: p.conn.contentType === 'ATTACHMENT' };
  const mails = await p.client.fetchAll('1:*', query);
  return mails.map((m) => ({ uid: m.uid, structure: m.bodyStructure })).sort((a, b) => a.uid - b.uid);
}

async function pollMailbox(ctx: PollContext, client: ImapFlow, conn: EmailConnection): Promise<PollOutcome> {
  const where = `Connection ${conn.address}@${conn.host}:${conn.port}`;
  let mailbox;
  try {
    mailbox = await client.mailboxOpen(conn.folder, { readOnly: true });
  } catch (err) {
    return {
      imported: 0,
      errors: [`${where}: the folder "${conn.folder}" cannot be opened: ${imapReason(err)}`],
    };
  }
  const p: MailboxPoll = {
    ctx,
    client,
    conn,
    uidValidity: String(mailbox.uidValidity),
    limit: ctx.maxBytes,
  };
  const outcome: PollOutcome = { imported: 0, errors: [] };
  for (const mail of await listMails(p, mailbox.exists)) {
    try {
      outcome.imported +=
        conn.contentType === 'MESSAGE'
          ? await importMessage(p, mail.uid)
          : await importAttachments(p, mail.uid, mail.structure);
    } catch (err) {
      outcome.errors.push(`${where}: mail UID ${mail.uid}: ${imapReason(err)}`);
      if (!client.usable) break; // the connection is gone: the next poll goes on from here
    }
  }
  return outcome;
}

async function pollConnection(ctx: PollContext, conn: EmailConnection): Promise<PollOutcome> {
  const where = `Connection ${conn.address}@${conn.host}:${conn.port}`;
  let client: ImapFlow;
  try {
    client = await connect(conn, ctx.deps.outboundAllowlist ?? []);
  } catch (err) {
    return { imported: 0, errors: [`${where}: ${(err as Error).message}`] };
  }
  try {
    return await pollMailbox(ctx, client, conn);
  } catch (err) {
    return { imported: 0, errors: [`${where}: ${imapReason(err)}`] };
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export const pollEmailNode: Poller = async (ctx) => {
  const total: PollOutcome = { imported: 0, errors: [] };
  for (const conn of await loadConnections(ctx)) {
    const outcome = await pollConnection(ctx, conn);
    total.imported += outcome.imported;
    total.errors.push(...outcome.errors);
  }
  return total;
};
