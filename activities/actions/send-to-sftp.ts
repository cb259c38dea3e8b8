/**
 * SEND_TO_SFTP executor (spec 3 sections 3 and 7): the node's file content and preferred filename, rendered
 * for the document, uploaded into the folder of the node's SFTP connection. The host goes through the net
 * guard and the client connects to the checked address. A file of that name already there is kept: the
 * upload gets a numeric suffix (`name-1.txt`, `name-2.txt`, ...). The result is the created file's address,
 * `sftp://host:port/folder/name`.
 *
 * Written once per run of the step: the chosen name is recorded (as a FAILURE row with `pendingFile`) before
 * the upload, and the upload goes to a temporary name renamed into place (SFTP rename never overwrites). A
 * retry finding the pending file in place with the right size records the success without uploading again.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { executionByKey } from '../../db/queries/action-results';
import SftpClient from 'ssh2-sftp-client';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { OutboundRefused, resolveOutbound } from '../../server/net-guard';
import { UnreadableCredential } from '../../db/crypto';
import {
  connectSftp,
  describeSftpError,
  HostKeyMismatch,
  missingCredential,
  openSftpCredentials,
} from '../sftp-client';
import {
  alreadySucceeded,
  executionKey,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
  refusalMessage,
} from './context';
import type { ActionExecutor, RunAutomaticNodeInput } from './index';
import { findSftpConnection, type SftpConnectionRow } from '../../db/queries/sftp-connections';

export const SFTP_TIMEOUT_MS = 10_000;
/** How many suffixed names are tried before giving up. */
const MAX_NAME_TRIES = 1000;

/** A file name without folders or control characters; empty when nothing usable is left. */
export function sftpFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '_').trim();
  return clean === '.' || clean === '..' ? '' : clean.slice(0, 255);
}

/** `report.txt`, then `report-1.txt`, `report-2.txt`, ... */
export function suffixed(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

export function sftpAddress(host: string, port: number, remotePath: string): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `sftp://${h}:${port}${remotePath.startsWith('/') ? '' : '/'}${remotePath}`;
}

const isAuthFailure = (err: unknown) =>
  /authentication|auth methods|permission denied/i.test((err as Error)?.message ?? '');

async function execute(input: RunAutomaticNodeInput, knex: Knex, allowlist: readonly string[]) {
  const node = await loadActionNode(knex, input.nodeId);
  const s = node.settings;
  const connectionId = s.sftpConnection?.id;
  const stored: SftpConnectionRow | undefined =
    connectionId === undefined ? undefined : await findSftpConnection(knex, connectionId);
  if (!stored) throw await permanentFailure(knex, input, 'The SFTP node has no SFTP connection');
  let conn: SftpConnectionRow;
  try {
    conn = openSftpCredentials(stored);
  } catch (err) {
    if (err instanceof UnreadableCredential) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
  const missing = missingCredential(conn);
  if (missing) throw await permanentFailure(knex, input, missing);
  if (!s.preferredFilename?.trim())
    throw await permanentFailure(knex, input, 'The SFTP node has no filename');

  let filename: string;
  let content: Buffer;
  try {
    const data = await loadRenderData(knex, input);
    filename = sftpFilename(renderTemplate(s.preferredFilename, data));
    content = Buffer.from(renderTemplate(s.fileContent ?? '', data), 'utf8');
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
  if (!filename) throw await permanentFailure(knex, input, 'The rendered filename is empty');

  const folder = conn.folder || '/';
  const where = { host: conn.address, port: conn.port, folder };
  let address: string;
  try {
    address = (await resolveOutbound(conn.address, allowlist)).address;
  } catch (err) {
    if (err instanceof OutboundRefused) throw await permanentFailure(knex, input, refusalMessage(err), where);
    throw err; // the name does not resolve (now): retried
  }

  const previous = await executionByKey(knex, executionKey(input));
  const pending: string | undefined = previous?.details?.pendingFile;
  const staleTemp: string | undefined = previous?.details?.pendingTemp;
  const client = new SftpClient(`send-to-sftp-${input.stepId}`);
  try {
    try {
      await connectSftp(knex, client, conn, address, SFTP_TIMEOUT_MS);
    } catch (err) {
      // Another server answers at the address (or someone in between): retrying cannot help.
      if (err instanceof HostKeyMismatch) throw await permanentFailure(knex, input, err.message, where);
      const message = `Connecting to ${conn.address}:${conn.port} failed: ${describeSftpError(err)}`;
      if (isAuthFailure(err)) throw await permanentFailure(knex, input, message, where);
      await recordResult(knex, input, 'FAILURE', { ...where, error: message });
      throw new Error(message, { cause: err });
    }

    // A crash in the middle of the upload left its temporary file: remove it.
    if (staleTemp) await client.delete(staleTemp, true).catch(() => undefined);
    // A crash after the upload and before the success was recorded: the file is there, do not send again.
    if (pending) {
      const there = await client.exists(pending);
      if (there === '-' && (await client.stat(pending)).size === content.length) {
        await recordResult(knex, input, 'SUCCESS', success(conn, pending, content.length));
        return;
      }
    }

    const kind = await client.exists(folder);
    if (kind !== 'd')
      throw await permanentFailure(
        knex,
        input,
        `The folder ${folder} does not exist on ${conn.address}:${conn.port}`,
        where,
      );
    for (let n = 0; n < MAX_NAME_TRIES; n++) {
      const target = path.posix.join(folder, suffixed(filename, n));
      if (await client.exists(target)) continue;
      const temp = path.posix.join(folder, `.${crypto.randomBytes(6).toString('hex')}.part`);
      await recordResult(knex, input, 'FAILURE', {
        ...where,
        pendingFile: target,
        pendingTemp: temp,
        error: 'upload unfinished',
      });
      try {
        await client.put(content, temp);
        await client.rename(temp, target);
      } catch (err) {
        await client.delete(temp, true).catch(() => undefined);
        if (await client.exists(target)) continue; // taken meanwhile: next name
        const message = `Uploading to ${conn.address}:${conn.port}${target} failed: ${describeSftpError(err)}`;
        if (/permission denied/i.test(message)) throw await permanentFailure(knex, input, message, where);
        await recordResult(knex, input, 'FAILURE', { ...where, error: message });
        throw new Error(message, { cause: err });
      }
      await recordResult(knex, input, 'SUCCESS', success(conn, target, content.length));
      return;
    }
    throw await permanentFailure(knex, input, `No free name for ${filename} in ${folder}`, where);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const success = (conn: SftpConnectionRow, remotePath: string, size: number) => ({
  host: conn.address,
  port: conn.port,
  folder: conn.folder,
  fileName: path.posix.basename(remotePath),
  size,
  createdFileAddress: sftpAddress(conn.address, conn.port, remotePath),
});

export const sendToSftp: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps.knex, deps.outboundAllowlist ?? []);
};
