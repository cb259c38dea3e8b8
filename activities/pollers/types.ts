/**
 * The contract between the upload-poller activity (`pollUploadNode`, index.ts) and the per-type pollers
 * (e-mail, SFTP, cloud drive): a poller lists its sources, asks `seen` before fetching an item, hands each
 * new item to `importFile` (which checks it like an upload, writes the document and its imported-item row in
 * one transaction and starts its workflow) and reports per-connection problems as `errors` instead of
 * throwing, so one failing connection does not stop the others.
 */
import type { Knex } from 'knex';
import type { FilesLocation } from '../../server/files';
import type { SettingsNode } from '../../db/queries/nodes';
import type { DocumentWorkflowInput } from '../../workflows/document-contract';

/** The files are FILES_DIR's or FILES_STORE's (server/files.ts FilesLocation). */
export interface PollerDeps extends FilesLocation {
  knex: Knex;
  /** Hosts/IPs/CIDRs connections may reach although private or loopback (OUTBOUND_ALLOWLIST). */
  outboundAllowlist?: string[];
  /** Starts `document-<id>` on the worker's task queue. */
  startDocument?: (input: DocumentWorkflowInput) => Promise<unknown>;
  /** Largest accepted file (UPLOAD_MAX_BYTES, as uploads). */
  uploadMaxBytes?: number;
  /** What a zip-based office file may unpack to (OFFICE_MAX_UNCOMPRESSED_BYTES, as uploads). */
  officeMaxUncompressedBytes?: number;
  /** Base URL of the Drive v3 API (DRIVE_API_BASE_URL); Google's when absent. */
  driveApiBaseUrl?: string;
  /** OAuth token endpoint and client of cloud-drive connections (GOOGLE_OAUTH_*), to refresh access tokens. */
  googleOAuth?: { tokenUrl: string; clientId: string; clientSecret: string };
}

/** The polled upload node: its identity, schedule and settings. */
export type UploadNode = SettingsNode;

export interface ImportItem {
  /** Identifies the item at its source, stable across polls (e.g. `imap:<conn>:<uidvalidity>:<uid>`). */
  sourceKey: string;
  filename: string;
  bytes: Uint8Array;
}

export type ImportOutcome =
  | { status: 'imported'; documentId: number }
  /** Imported by an earlier poll (or a concurrent one): nothing written. */
  | { status: 'duplicate'; documentId: number | null }
  /** Not an accepted document (type, content or size): recorded as REJECTED so it is not fetched again. */
  | { status: 'rejected'; message: string };

export interface PollContext {
  deps: PollerDeps;
  node: UploadNode;
  /** The state of an item already handled (IMPORTED, STARTED, REJECTED, DONE), or null when it is new. */
  itemState(sourceKey: string): Promise<string | null>;
  /** True when the item was handled before (any state): skip fetching it. */
  seen(sourceKey: string): Promise<boolean>;
  importFile(item: ImportItem): Promise<ImportOutcome>;
  /** Marks an imported item DONE (its after-import work, e.g. copy and delete, is finished). */
  markDone(sourceKey: string, detail?: string): Promise<void>;
  /** Records an item that is not fetched (e.g. too large, not downloadable) as REJECTED with the reason. */
  reject(sourceKey: string, detail: string): Promise<void>;
  /** The note kept with an item (e.g. where a copy was started), or null. */
  itemDetail(sourceKey: string): Promise<string | null>;
  setDetail(sourceKey: string, detail: string): Promise<void>;
  /** Largest accepted file in bytes (UPLOAD_MAX_BYTES, as uploads). */
  maxBytes: number;
}

export interface PollOutcome {
  /** Documents created by this poll. */
  imported: number;
  /** Problems of single connections or items (the poll went on with the others). */
  errors: string[];
}

export type Poller = (ctx: PollContext) => Promise<PollOutcome>;
