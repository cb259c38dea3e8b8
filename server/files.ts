/**
 * The file store: uploaded files under the files directory (FILES_DIR), addressed by the sha256 of their
 * content and sharded (`ab/cd/abcd...`), so the same content is stored once however many documents use it.
 * Writes are atomic (a temporary file renamed into place). Page images the parser writes live beside them
 * under `pages/<documentId>/`. Paths in the database are relative to the files directory.
 *
 * A file is shared by every document with the same content, so adding a document that uses a stored file
 * and removing the last document that uses it are serialized by a transaction-scoped advisory lock on the
 * file's key (`withFileLock`): an upload never ends up pointing at a file a concurrent delete removed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

export interface StoredFile {
  /** Path relative to the files directory. */
  key: string;
  hash: string;
  size: number;
}

export interface FileStore {
  readonly dir: string;
  /** The absolute path of a stored key (keys never leave the directory). */
  absolute(key: string): string;
  /** Stores the bytes under their hash (computed unless given); a file already there is kept. */
  put(bytes: Uint8Array, hash?: string): Promise<StoredFile>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** Removes the page images of documents (`pages/<id>/`). */
  removePages(documentIds: readonly number[]): Promise<void>;
}

export const sha256 = (bytes: Uint8Array): string => crypto.createHash('sha256').update(bytes).digest('hex');

export const keyOfHash = (hash: string): string => path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);

export function createFileStore(dir: string): FileStore {
  const root = path.resolve(dir);
  const absolute = (key: string): string => {
    const p = path.resolve(root, key);
    if (p !== root && !p.startsWith(root + path.sep)) throw new Error(`file key outside the store: ${key}`);
    return p;
  };
  const exists = async (key: string) =>
    fs.promises.access(absolute(key)).then(
      () => true,
      () => false,
    );

  return {
    dir: root,
    absolute,
    exists,
    async put(bytes, knownHash) {
      const hash = knownHash ?? sha256(bytes);
      const key = keyOfHash(hash);
      const target = absolute(key);
      if (!(await exists(key))) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const tmp = `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
        try {
          await fs.promises.writeFile(tmp, bytes, { flag: 'wx' });
          await fs.promises.rename(tmp, target);
        } finally {
          await fs.promises.rm(tmp, { force: true });
        }
      }
      return { key, hash, size: bytes.length };
    },
    async remove(key) {
      await fs.promises.rm(absolute(key), { force: true });
    },
    async removePages(documentIds) {
      // The pages folders and any staging or set-aside siblings an interrupted parse left (`<id>.staging-*`).
      const ids = new Set(documentIds.map(String));
      const pages = absolute('pages');
      const names = await fs.promises.readdir(pages).catch(() => [] as string[]);
      for (const name of names) {
        if (ids.has(name.split('.')[0])) {
          await fs.promises.rm(path.join(pages, name), { recursive: true, force: true });
        }
      }
    },
  };
}

/** Takes the advisory lock of a file key until the transaction ends. */
export async function withFileLock(trx: Knex.Transaction, key: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`file:${key}`]);
}

/**
 * Removes stored files no document and no page row refers to any more (after their documents were deleted).
 * Each check-and-remove holds the file's lock, so an upload of the same content waits or sees it gone.
 */
export async function removeUnusedFiles(knex: Knex, store: FileStore, keys: Iterable<string>): Promise<void> {
  for (const key of new Set(keys)) {
    await knex.transaction(async (trx) => {
      await withFileLock(trx, key);
      const used =
        (await trx('documents').where('path', key).first('id')) ??
        (await trx('document_pages').where('path', key).first('document_id'));
      if (!used) await store.remove(key);
    });
  }
}
