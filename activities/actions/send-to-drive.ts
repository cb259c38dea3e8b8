/**
 * SEND_TO_GOOGLE_DRIVE executor (spec 3 sections 3 and 7): the node's file content and preferred filename,
 * rendered for the document (or the batch), uploaded as a text/plain file into the folder of the node's
 * cloud-drive connection with Drive v3's multipart upload. The result details are the created file's
 * `createdFileId` and `fileUrl` (read by `${node.<id>.googledriveresult.*}`) and its `filename`.
 *
 * Written once per run of the step: Drive accepts several files of one name, so the upload carries a random
 * token in its appProperties, and the name and token are recorded (a FAILURE row with `pendingUpload`) before
 * the upload. A retry after a crash lists the folder by that name and, finding the file with its token,
 * records the success without uploading again. 4xx answers, a refused sign-in and bad configuration fail for
 * good; 5xx answers, rate limits, network errors and timeouts are retried.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { executionByKey } from '../../db/queries/action-results';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { createDriveClient, DriveError, isUsable, type DriveClient } from '../drive-client';
import {
  alreadySucceeded,
  executionKey,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
} from './context';
import type { ActionDeps, ActionExecutor, RunAutomaticNodeInput } from './index';
import { driveConnectionsOfNode } from '../../db/queries/drive-connections';

/** The appProperties key of the token that identifies one execution's upload. */
export const UPLOAD_TOKEN_PROPERTY = 'workbenchUploadToken';
const MIME_TYPE = 'text/plain';

interface PendingUpload {
  name: string;
  token: string;
}

/** A one-line name without control characters, at most 255 characters; empty when nothing is left. */
export function driveFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = name.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return oneLine.trim().slice(0, 255).trim();
}

/** The Drive URL of a file when the API did not return its webViewLink. */
const viewUrl = (fileId: string) => `https://drive.google.com/file/d/${encodeURIComponent(fileId)}/view`;

async function rendered(knex: Knex, input: RunAutomaticNodeInput, template: string, content: string) {
  try {
    const data = await loadRenderData(knex, input);
    return {
      filename: driveFilename(renderTemplate(template, data)),
      content: renderTemplate(content, data),
    };
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }
}

/** The file a crashed earlier attempt of this execution uploaded, if it got that far. */
async function uploadedBefore(drive: DriveClient, folderId: string, pending: PendingUpload) {
  const files = await drive.listFolder(folderId, { name: pending.name });
  return files.find((f) => f.appProperties[UPLOAD_TOKEN_PROPERTY] === pending.token);
}

async function execute(input: RunAutomaticNodeInput, deps: ActionDeps) {
  const { knex } = deps;
  const node = await loadActionNode(knex, input.nodeId);
  const [conn] = await driveConnectionsOfNode(knex, node.id);
  if (!conn) throw await permanentFailure(knex, input, 'The cloud-drive node has no cloud-drive connection');
  if (!isUsable(conn))
    throw await permanentFailure(
      knex,
      input,
      `The cloud-drive connection "${conn.name}" is not authorized: sign in again in the node's settings`,
    );
  if (!conn.folder_id?.trim())
    throw await permanentFailure(knex, input, `The cloud-drive connection "${conn.name}" has no folder`);
  if (!node.settings.preferredFilename?.trim())
    throw await permanentFailure(knex, input, 'The cloud-drive node has no filename');

  const file = await rendered(knex, input, node.settings.preferredFilename, node.settings.fileContent ?? '');
  if (!file.filename) throw await permanentFailure(knex, input, 'The rendered filename is empty');

  const folderId = conn.folder_id.trim();
  const where = { connection: conn.name, folderId };
  const previous = await executionByKey(knex, executionKey(input));
  const earlier: PendingUpload | undefined = previous?.details?.pendingUpload;
  // A rerendered name (e.g. ${util.datetime}) differs from the recorded one: the recorded one was uploaded.
  const pending: PendingUpload = earlier ?? { name: file.filename, token: crypto.randomUUID() };
  const drive = createDriveClient({ knex, baseUrl: deps.driveApiBaseUrl, oauth: deps.googleOAuth }, conn);
  try {
    const found = earlier ? await uploadedBefore(drive, folderId, pending) : undefined;
    if (found) {
      await recordResult(knex, input, 'SUCCESS', success(where, found.id, found.webViewLink, pending.name));
      return;
    }
    await recordResult(knex, input, 'FAILURE', {
      ...where,
      pendingUpload: pending,
      error: 'upload unfinished',
    });
    const created = await drive.uploadMultipart(
      folderId,
      pending.name,
      MIME_TYPE,
      Buffer.from(file.content, 'utf8'),
      { [UPLOAD_TOKEN_PROPERTY]: pending.token },
    );
    await recordResult(knex, input, 'SUCCESS', success(where, created.id, created.webViewLink, pending.name));
  } catch (err) {
    if (!(err instanceof DriveError)) throw err;
    const details = { ...where, pendingUpload: pending };
    if (err.permanent) throw await permanentFailure(knex, input, err.message, details);
    await recordResult(knex, input, 'FAILURE', { ...details, error: err.message });
    throw new Error(err.message, { cause: err });
  }
}

const success = (
  where: { connection: string; folderId: string },
  fileId: string,
  webViewLink: string | null,
  filename: string,
) => ({ ...where, filename, createdFileId: fileId, fileUrl: webViewLink ?? viewUrl(fileId) });

export const sendToDrive: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps);
};
