/**
 * Cloud-drive upload poller (GDU_UPLOAD, spec 3 sections 3 and 7): for each drive connection of the node, the
 * files of its folder (not trashed, not in subfolders) are listed and each new one is downloaded and imported
 * under its Drive name. An item is `drive:<connectionId>:<fileId>:<modifiedTime>`, so a file changed in
 * Drive is imported again as a new document, and an unchanged one never twice.
 *
 * Google Docs types have no content to download and files above the upload limit are not fetched: both are
 * recorded as REJECTED items with the reason (as a refused import is), so they are noted once, not on every
 * tick. Subfolders are ignored. A failing connection or file is reported in `errors`; the others go on.
 */
import {
  createDriveClient,
  DriveError,
  FOLDER_MIME,
  isGoogleAppsType,
  isUsable,
  type DriveConnectionRow,
  type DriveFile,
} from '../drive-client';
import type { PollContext, Poller, PollOutcome } from './types';
import { driveConnectionsOfNode } from '../../db/queries/drive-connections';

export const driveSourceKey = (connectionId: number, f: Pick<DriveFile, 'id' | 'modifiedTime'>) =>
  `drive:${connectionId}:${f.id}:${f.modifiedTime}`;

/** Why a listed file is not downloaded, or null when it is. */
function notFetched(f: DriveFile, maxBytes: number): string | null {
  if (isGoogleAppsType(f.mimeType))
    return `${f.name} is a Google Docs file (${f.mimeType}) and cannot be downloaded: export it as a file`;
  if (f.size !== null && f.size > maxBytes) return `${f.name} is larger than ${maxBytes} bytes`;
  return null;
}

async function pollConnection(ctx: PollContext, conn: DriveConnectionRow, out: PollOutcome): Promise<void> {
  const label = `Connection "${conn.name}"`;
  if (!isUsable(conn)) {
    out.errors.push(`${label}: not authorized, sign in again in the node's settings`);
    return;
  }
  const { deps } = ctx;
  const maxBytes = ctx.maxBytes;
  const drive = createDriveClient(
    { knex: deps.knex, baseUrl: deps.driveApiBaseUrl, oauth: deps.googleOAuth },
    conn,
  );
  let files: DriveFile[];
  try {
    files = await drive.listFolder(conn.folder_id);
  } catch (err) {
    out.errors.push(`${label}: ${(err as Error).message}`);
    return;
  }
  for (const f of files) {
    if (f.mimeType === FOLDER_MIME) continue;
    const sourceKey = driveSourceKey(conn.id, f);
    if (await ctx.seen(sourceKey)) continue;
    const skipped = notFetched(f, maxBytes);
    if (skipped) {
      await ctx.reject(sourceKey, skipped);
      continue;
    }
    try {
      const bytes = await drive.download(f);
      const outcome = await ctx.importFile({ sourceKey, filename: f.name, bytes });
      if (outcome.status === 'imported') out.imported++;
    } catch (err) {
      out.errors.push(`${label}: ${(err as Error).message}`);
      if (err instanceof DriveError && err.signIn) return; // the other files would fail alike
    }
  }
}

export const pollDriveNode: Poller = async (ctx) => {
  const out: PollOutcome = { imported: 0, errors: [] };
  const connections = await driveConnectionsOfNode(ctx.deps.knex, ctx.node.id);
  if (connections.length === 0) out.errors.push('The cloud-drive upload node has no connection');
  for (const conn of connections) await pollConnection(ctx, conn, out);
  return out;
};
