/**
 * SFTP upload poller (spec 3, SFTP upload node and its transfer rules): for each rule of the node, the
 * source connection's folder is listed (regular files only, no recursion) and each new file imported as a
 * document; then the file is copied into the target connection's folder when the rule has a target (same
 * name, a numeric suffix when taken, as send-to-SFTP) and deleted from the source when the rule asks, and
 * only then marked DONE. A file imported by an earlier poll that stopped before its transfer (IMPORTED or
 * STARTED) is transferred by the next poll; a REJECTED file (not an accepted document) is left where it is.
 *
 * Rules:
 * - The source key is `sftp:<sourceConnectionId>:<path>:<size>:<mtime>`: a file changed in place is a new
 *   item. Two rules with the same source connection therefore share their items: the first one handles them.
 * - Every connection goes through the net guard (`deps.outboundAllowlist`) and to the checked address.
 * - A download reads at most the upload limit plus one byte, so an oversized file is rejected as an upload
 *   would be without being read whole.
 * - A copy goes to a temporary name renamed into place (SFTP rename never overwrites); the chosen name is
 *   written to the item's detail first, so a poll after a crash finds that copy instead of making another.
 * - A file is deleted from the source only if it is still the one imported (same size and mtime).
 * - Problems are reported per rule or file with the connection's name; the other files and rules go on.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type SftpClient from 'ssh2-sftp-client';
import {
  sftpConnectionsOfNode,
  transferRulesOfNodes,
  type SftpConnectionRow,
} from '../../db/queries/sftp-connections';
import type { SftpTransferRuleDTO } from '../../domain/graph-types';
import { sftpAddress, sftpFilename, suffixed } from '../actions/send-to-sftp';
import { describeSftpError, openSftp } from '../sftp-client';
import type { PollContext, Poller } from './types';

/** How many suffixed names are tried before giving up (as send-to-SFTP). */
const MAX_NAME_TRIES = 1000;
/** Prefix of an item's detail while its copy is under way: the target path follows. */
const PENDING_COPY = 'copying to ';

type TransferRule = SftpTransferRuleDTO;

interface RemoteFile {
  name: string;
  size: number;
  /** Seconds since the epoch, as SFTP reports it. */
  mtime: number;
}

/** One rule being run: its connections and the problems found so far. */
interface RuleRun {
  ctx: PollContext;
  rule: TransferRule;
  source: SftpConnectionRow;
  sourceClient: SftpClient;
  target: SftpConnectionRow | null;
  /** The target client, opened at the first copy (once per rule). */
  targetClient: () => Promise<SftpClient>;
  maxBytes: number;
  /** Counts a document created (before its transfer, which may still fail). */
  onImported: () => void;
}

const allowlistOf = (ctx: PollContext) => ctx.deps.outboundAllowlist ?? [];

export const pollSftpNode: Poller = async (ctx) => {
  const { knex } = ctx.deps;
  const rules = (await transferRulesOfNodes(knex, [ctx.node.id])).get(ctx.node.id)!;
  const rows = await sftpConnectionsOfNode(knex, ctx.node.id);
  const connections = new Map(rows.map((c) => [Number(c.id), c]));
  let imported = 0;
  const errors: string[] = [];
  const report = (message: string) => {
    if (!errors.includes(message)) errors.push(message);
  };
  for (const rule of rules) {
    try {
      await runRule(ctx, rule, connections, {
        report,
        onImported: () => imported++,
      });
    } catch (err) {
      report((err as Error).message);
    }
  }
  return { imported, errors };
};

const ruleLabel = (rule: TransferRule) =>
  rule.name ? `Transfer rule "${rule.name}"` : `Transfer rule ${rule.id}`;

/** Lists the rule's source folder and handles each file. */
async function runRule(
  ctx: PollContext,
  rule: TransferRule,
  connections: Map<number, SftpConnectionRow>,
  { report, onImported }: { report: (message: string) => void; onImported: () => void },
): Promise<void> {
  const source = connections.get(Number(rule.sourceId));
  if (!source) throw new Error(`${ruleLabel(rule)} has no source connection`);
  const target = rule.targetId === null ? null : (connections.get(Number(rule.targetId)) ?? null);
  if (rule.targetId !== null && !target) throw new Error(`${ruleLabel(rule)}: its target connection is gone`);

  const sourceClient = await openSftp(
    ctx.deps.knex,
    source,
    allowlistOf(ctx),
    `sftp-poll-${ctx.node.id}-${rule.id}`,
  );
  let opening: Promise<SftpClient> | undefined;
  const run: RuleRun = {
    ctx,
    rule,
    source,
    sourceClient,
    target,
    targetClient: () =>
      (opening ??= openSftp(ctx.deps.knex, target!, allowlistOf(ctx), `sftp-copy-${ctx.node.id}-${rule.id}`)),
    maxBytes: ctx.maxBytes,
    onImported,
  };
  try {
    const files = await listFiles(sourceClient, source);
    for (const file of files) {
      try {
        await handleFile(run, file);
      } catch (err) {
        report((err as Error).message);
      }
    }
  } finally {
    await sourceClient.end().catch(() => undefined);
    if (opening) await opening.then((c) => c.end()).catch(() => undefined);
  }
}

const folderOf = (conn: SftpConnectionRow) => conn.folder || '/';

async function listFiles(client: SftpClient, conn: SftpConnectionRow): Promise<RemoteFile[]> {
  const folder = folderOf(conn);
  let entries: SftpClient.FileInfo[];
  try {
    entries = await client.list(folder);
  } catch (err) {
    throw new Error(`SFTP connection "${conn.name}": listing ${folder} failed: ${describeSftpError(err)}`, {
      cause: err,
    });
  }
  return entries
    .filter((e) => e.type === '-')
    .map((e) => ({ name: e.name, size: e.size, mtime: Math.floor(e.modifyTime / 1000) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Reads at most `maxBytes + 1` bytes of the file (`end` is inclusive). */
async function download(client: SftpClient, remotePath: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of client.createReadStream(remotePath, { start: 0, end: maxBytes }))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Imports the file when it is new, then transfers it when it is imported and not yet DONE. */
async function handleFile(run: RuleRun, file: RemoteFile): Promise<void> {
  const { ctx, source, sourceClient, maxBytes } = run;
  const remotePath = path.posix.join(folderOf(source), file.name);
  const key = `sftp:${source.id}:${remotePath}:${file.size}:${file.mtime}`;
  const failed = (what: string, err: unknown) =>
    new Error(`SFTP connection "${source.name}": ${what} ${remotePath} failed: ${describeSftpError(err)}`, {
      cause: err,
    });

  let state = await ctx.itemState(key);
  let bytes: Buffer | undefined;
  if (state === null) {
    bytes = await download(sourceClient, remotePath, maxBytes).catch((err) => {
      throw failed('reading', err);
    });
    // Still being written (or replaced) since the listing: the next poll sees it with its final size.
    if (bytes.length !== Math.min(file.size, maxBytes + 1)) return;
    const outcome = await ctx.importFile({ sourceKey: key, filename: file.name, bytes });
    // Rejected files stay at the source for the user to see; a duplicate is another poll's to transfer.
    if (outcome.status !== 'imported') return;
    run.onImported();
    state = await ctx.itemState(key);
  }
  if (state !== 'IMPORTED' && state !== 'STARTED') return;

  const done: string[] = [];
  if (run.target) {
    if (!bytes) {
      bytes = await download(sourceClient, remotePath, maxBytes).catch((err) => {
        throw failed('reading', err);
      });
      if (bytes.length !== file.size) return; // changed since: a new item for the next poll
    }
    done.push(`copied to ${await copyToTarget(run, key, file.name, bytes)}`);
  }
  if (run.rule.deleteAfterTransfer) {
    const deleted = await deleteIfUnchanged(sourceClient, remotePath, file).catch((err) => {
      throw failed('deleting', err);
    });
    if (deleted) {
      done.push('deleted from the source');
    } else {
      done.push('changed or gone at the source, not deleted');
    }
  }
  await ctx.markDone(key, done.join('; ') || undefined);
  return;
}

/** Deletes the file if it is still the one listed (same size and mtime); false when it changed or went. */
async function deleteIfUnchanged(client: SftpClient, remotePath: string, file: RemoteFile): Promise<boolean> {
  if ((await client.exists(remotePath)) !== '-') return false;
  const now = await client.stat(remotePath);
  if (now.size !== file.size || Math.floor(now.modifyTime / 1000) !== file.mtime) return false;
  await client.delete(remotePath, true);
  return true;
}

/** Where an earlier poll started copying this item, if it did. */
async function pendingCopy(ctx: PollContext, key: string): Promise<string | null> {
  const detail = await ctx.itemDetail(key);
  return detail?.startsWith(PENDING_COPY) ? detail.slice(PENDING_COPY.length) : null;
}

async function notePendingCopy(ctx: PollContext, key: string, remotePath: string): Promise<void> {
  await ctx.setDetail(key, `${PENDING_COPY}${remotePath}`);
}

/** Uploads the bytes into the target folder under the first free name; returns the file's address. */
async function copyToTarget(run: RuleRun, key: string, filename: string, bytes: Buffer): Promise<string> {
  const target = run.target!;
  const client = await run.targetClient();
  try {
    return sftpAddress(
      target.address,
      target.port,
      await copy(run.ctx, client, target, key, filename, bytes),
    );
  } catch (err) {
    throw new Error(
      `SFTP connection "${target.name}": copying ${filename} failed: ${describeSftpError(err)}`,
      {
        cause: err,
      },
    );
  }
}

async function copy(
  ctx: PollContext,
  client: SftpClient,
  target: SftpConnectionRow,
  key: string,
  filename: string,
  bytes: Buffer,
): Promise<string> {
  const pending = await pendingCopy(ctx, key);
  if (pending && (await client.exists(pending)) === '-' && (await client.stat(pending)).size === bytes.length)
    return pending;
  const folder = folderOf(target);
  if ((await client.exists(folder)) !== 'd') throw new Error(`the folder ${folder} does not exist`);
  const name = sftpFilename(filename) || 'file';
  for (let n = 0; n < MAX_NAME_TRIES; n++) {
    const remotePath = path.posix.join(folder, suffixed(name, n));
    if (await client.exists(remotePath)) continue;
    await notePendingCopy(ctx, key, remotePath);
    const temp = path.posix.join(folder, `.${crypto.randomBytes(6).toString('hex')}.part`);
    try {
      await client.put(bytes, temp);
      await client.rename(temp, remotePath);
    } catch (err) {
      await client.delete(temp, true).catch(() => undefined);
      if (await client.exists(remotePath)) continue; // taken meanwhile: next name
      throw err;
    }
    return remotePath;
  }
  throw new Error(`no free name for ${name} in ${folder}`);
}
