/**
 * The upload page's queue (spec 2 "Upload page"): files picked or dropped are checked with the API's own
 * rule (domain/upload-check.ts: size first, then extension and content) before anything is sent; refused
 * ones go to a separate list the user can discard, accepted ones wait in the queue and are sent one at a
 * time; a failure keeps its error for the error list and can be retried. Pure: the reducer and the check.
 */
import {
  ACCEPTED_EXTENSIONS,
  checkUpload,
  checkUploadSize,
  type UploadRefusalReason,
} from '@domain/upload-check';

export interface UploadLimits {
  maxBytes: number;
  officeMaxUncompressedBytes: number;
}

/** The API's defaults (UPLOAD_MAX_BYTES, OFFICE_MAX_UNCOMPRESSED_BYTES) until management/info says otherwise. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxBytes: 50 * 1024 * 1024,
  officeMaxUncompressedBytes: 64 * 1024 * 1024,
};

/** The file picker's accept list: every extension the API accepts. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.map((e) => `.${e}`).join(',');

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed';

export interface UploadItem {
  key: string;
  file: File;
  /** The upload node chosen when the file was added. */
  nodeId: number;
  status: UploadStatus;
  /** Bytes sent of `total` (the multipart body, a little more than the file). */
  loaded: number;
  total: number;
  documentId?: number;
  /** The failure (an HttpError or RequestError), translated when shown. */
  error?: unknown;
}

export interface RejectedItem {
  key: string;
  name: string;
  size: number;
  reason: UploadRefusalReason;
}

export interface UploadState {
  items: UploadItem[];
  rejected: RejectedItem[];
}

export const EMPTY_UPLOAD_STATE: UploadState = { items: [], rejected: [] };

export type UploadEvent =
  | { type: 'added'; accepted: { key: string; file: File; nodeId: number }[]; rejected: RejectedItem[] }
  | { type: 'started'; key: string }
  | { type: 'progress'; key: string; loaded: number; total: number }
  | { type: 'succeeded'; key: string; documentId: number }
  | { type: 'failed'; key: string; error: unknown }
  | { type: 'retry'; key: string }
  | { type: 'retryAll' }
  | { type: 'discard'; key: string }
  | { type: 'discardAllRejected' }
  | { type: 'clearDone' };

const update = (state: UploadState, key: string, change: Partial<UploadItem>): UploadState => ({
  ...state,
  items: state.items.map((i) => (i.key === key ? { ...i, ...change } : i)),
});

export function uploadReducer(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'added':
      return {
        items: [
          ...state.items,
          ...event.accepted.map((a) => ({
            key: a.key,
            file: a.file,
            nodeId: a.nodeId,
            status: 'queued' as const,
            loaded: 0,
            total: a.file.size,
          })),
        ],
        rejected: [...state.rejected, ...event.rejected],
      };
    case 'started':
      return update(state, event.key, { status: 'uploading', loaded: 0, error: undefined });
    case 'progress':
      return update(state, event.key, { loaded: event.loaded, total: event.total });
    case 'succeeded': {
      const item = state.items.find((i) => i.key === event.key);
      return update(state, event.key, {
        status: 'done',
        documentId: event.documentId,
        loaded: item?.total ?? 0,
      });
    }
    case 'failed':
      return update(state, event.key, { status: 'failed', error: event.error });
    case 'retry':
      return update(state, event.key, { status: 'queued', loaded: 0, error: undefined });
    case 'retryAll':
      return {
        ...state,
        items: state.items.map((i) =>
          i.status === 'failed' ? { ...i, status: 'queued', loaded: 0, error: undefined } : i,
        ),
      };
    case 'discard':
      return {
        items: state.items.filter((i) => i.key !== event.key || i.status === 'uploading'),
        rejected: state.rejected.filter((r) => r.key !== event.key),
      };
    case 'discardAllRejected':
      return { ...state, rejected: [] };
    case 'clearDone':
      return { ...state, items: state.items.filter((i) => i.status !== 'done') };
  }
}

/** The next file to send: none while one is on its way (one at a time), else the first queued. */
export function nextToSend(state: UploadState): UploadItem | null {
  if (state.items.some((i) => i.status === 'uploading')) return null;
  return state.items.find((i) => i.status === 'queued') ?? null;
}

/** Percent of a file sent, 0..100. */
export const percentOf = (item: UploadItem): number =>
  item.status === 'done'
    ? 100
    : item.total > 0
      ? Math.min(100, Math.floor((item.loaded / item.total) * 100))
      : 0;

/** Counts for the summary line. */
export function summary(state: UploadState) {
  const count = (s: UploadStatus) => state.items.filter((i) => i.status === s).length;
  return {
    done: count('done'),
    failed: count('failed'),
    waiting: count('queued') + count('uploading'),
    rejected: state.rejected.length,
  };
}

/**
 * The API's check of one file, before it is sent: the size from the File alone (a file over the limit is
 * never read), then extension and content from its bytes. Null when it may be sent, else why not.
 */
export async function checkFile(
  file: Pick<File, 'name' | 'size' | 'arrayBuffer'>,
  limits: UploadLimits,
): Promise<UploadRefusalReason | null> {
  const size = checkUploadSize(file.size, limits.maxBytes);
  if (size) return size.reason;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const check = checkUpload(file.name, bytes, limits.maxBytes, limits.officeMaxUncompressedBytes);
  return check.ok ? null : check.reason;
}
