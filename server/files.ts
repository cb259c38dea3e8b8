/**
 * The file store: uploaded files addressed by the sha256 of their content and sharded (`ab/cd/abcd...`), so
 * the same content is stored once however many documents use it, and the page images the parser writes
 * (`pages/<documentId>/...`). Keys in the database are relative to the store. Two stores behind one
 * interface: the local directory FILES_DIR (server/files-local.ts, the default) and a bucket of S3-compatible
 * object storage, FILES_STORE=s3://bucket/prefix (server/files-s3.ts). Programs that need a path (tesseract,
 * LibreOffice, sox) get a private copy (`download`), which their caller removes.
 *
 * A file is shared by every document with the same content, so adding a document that uses a stored file
 * and removing the last document that uses it are serialized by a transaction-scoped advisory lock on the
 * file's key (`withFileLock`): an upload never ends up pointing at a file a concurrent delete removed. The
 * file is written before the document row inside that transaction, so a failed write rolls the row back.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { fileInUse } from '../db/queries/documents';
import { advisoryXactLock } from '../db/queries/locks';
import type { Component as HealthComponent } from './health';
import { createLocalFileStore } from './files-local';
import { createS3FileStore, type ObjectStoreSettings } from './files-s3';

export type { ObjectStoreSettings } from './files-s3';
export { parseFilesStoreUrl } from './files-s3';

export interface StoredFile {
  /** Key relative to the store. */
  key: string;
  hash: string;
  size: number;
}

/** A stored file that is not there (a read of a key nobody wrote, or one removed since). */
export class FileMissing extends Error {
  constructor(readonly key: string) {
    super(`stored file ${key} is missing`);
    this.name = 'FileMissing';
  }
}

/** A key that would leave the store (`../`, an absolute path): a damaged row, never a path to follow. */
export class KeyOutsideStore extends Error {
  constructor(readonly key: string) {
    super(`file key outside the store: ${key}`);
    this.name = 'KeyOutsideStore';
  }
}

/** The store refused or could not be reached for a write (a bucket gone, credentials refused, the network). */
export class FilesStoreUnavailable extends Error {
  constructor(location: string, cause: unknown) {
    super(`the files store ${location} is unavailable: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'FilesStoreUnavailable';
  }
}

/** Bytes `start`..`end` of a file, both inclusive (an HTTP range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Page images written aside and put in place while the transaction recording them is open. */
export interface StagedPages {
  /** document_pages rows to insert. */
  rows: { index: number; path: string }[];
  /**
   * Puts the staged pages in place of the previous ones (`previous`: their keys, from the page rows being
   * replaced); returns how to undo it (the transaction failed) and how to drop the previous ones (it committed).
   */
  swapIn(previous: readonly string[]): Promise<{ undo(): Promise<void>; cleanup(): Promise<void> }>;
  /** Drops the staged pages (when the swap did not happen). */
  discard(): Promise<void>;
}

export interface FileStore {
  /** The directory or `s3://bucket/prefix`, for logs and health details. */
  readonly location: string;
  /** Stores the bytes under their hash (computed unless given); a file already there is kept. */
  put(bytes: Uint8Array, hash?: string): Promise<StoredFile>;
  exists(key: string): Promise<boolean>;
  /** The size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** The bytes (or a range of them) as a stream; FileMissing when there is no such file. */
  openRead(key: string, range?: ByteRange): Promise<Readable>;
  /** Copies a stored file to a local path (programs need one); FileMissing when there is no such file. */
  download(key: string, localPath: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Removes the page images of documents (`pages/<id>/` and what an interrupted parse left beside). */
  removePages(documentIds: readonly number[]): Promise<void>;
  /** Copies page PNGs (local files) aside for a document, to be swapped in by the parse's transaction. */
  stagePages(documentId: number, sources: readonly string[]): Promise<StagedPages>;
  /** UP when the store can be used: the directory writable with `minFreeBytes` free, or the bucket reachable. */
  health(minFreeBytes: number): Promise<HealthComponent>;
}

/** Where the files are: FILES_DIR, or the bucket of FILES_STORE when that is set. */
export interface FilesLocation {
  filesDir: string;
  /** FILES_STORE (server/config.ts); the local directory when null or absent. */
  filesStore?: ObjectStoreSettings | null;
}

export const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');

export const keyOfHash = (hash: string): string => path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);

/** Where a document's pages live (document_pages.path holds `<this>/...png`). */
export const pagesFolder = (documentId: number): string => path.posix.join('pages', String(documentId));

/** The local store of a directory (tests and scripts that lay files out themselves). */
export const createFileStore = (dir: string): FileStore => createLocalFileStore(dir);

const opened = new Map<string, FileStore>();

/** The store of a location, one per location in a process (an S3 client keeps its connections). */
export function openFileStore(location: FilesLocation): FileStore {
  const s = location.filesStore;
  const id = s ? `s3:${JSON.stringify(s)}` : `dir:${path.resolve(location.filesDir)}`;
  let store = opened.get(id);
  if (!store) {
    store = s ? createS3FileStore(s) : createLocalFileStore(location.filesDir);
    opened.set(id, store);
  }
  return store;
}

/** Takes the advisory lock of a file key until the transaction ends. */
export async function withFileLock(trx: Knex.Transaction, key: string): Promise<void> {
  await advisoryXactLock(trx, `file:${key}`);
}

/**
 * Removes stored files no document and no page row refers to any more (after their documents were deleted).
 * Each check-and-remove holds the file's lock, so an upload of the same content waits or sees it gone.
 */
export async function removeUnusedFiles(knex: Knex, store: FileStore, keys: Iterable<string>): Promise<void> {
  for (const key of new Set(keys)) {
    await knex.transaction(async (trx) => {
      await withFileLock(trx, key);
      if (!(await fileInUse(trx, key))) await store.remove(key);
    });
  }
}
