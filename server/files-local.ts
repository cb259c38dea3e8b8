/**
 * The local file store (server/files.ts): files under one directory (FILES_DIR), written atomically (a
 * temporary file renamed into place). New page images go to a staging folder beside the document's pages
 * folder and are swapped in by renames while the transaction that records them is open, so a retry or a
 * rerun never leaves a mix of old and new pages.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { diskHealth } from './health';
import {
  FileMissing,
  KeyOutsideStore,
  keyOfHash,
  pagesFolder,
  sha256,
  type FileStore,
  type StagedPages,
} from './files';

const missingAs = (key: string) => (err: NodeJS.ErrnoException) => {
  throw err.code === 'ENOENT' ? new FileMissing(key) : err;
};

export function createLocalFileStore(dir: string): FileStore {
  const root = path.resolve(dir);
  const absolute = (key: string): string => {
    const p = path.resolve(root, key);
    if (p !== root && !p.startsWith(root + path.sep)) throw new KeyOutsideStore(key);
    return p;
  };
  const exists = async (key: string) =>
    fs.promises.access(absolute(key)).then(
      () => true,
      () => false,
    );

  return {
    location: root,
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
    async size(key) {
      const st = await fs.promises.stat(absolute(key)).catch(() => null);
      return st?.isFile() ? st.size : null;
    },
    async openRead(key, range) {
      // Opened before the stream is handed out, so a missing file is a FileMissing here, not a stream error.
      const handle = await fs.promises.open(absolute(key), 'r').catch(missingAs(key));
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {}) as Readable;
    },
    async download(key, localPath) {
      await fs.promises.copyFile(absolute(key), localPath).catch(missingAs(key));
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
    stagePages: (documentId, sources) =>
      stageLocalPages(absolute(pagesFolder(documentId)), documentId, sources),
    health: (minFreeBytes) => diskHealth(root, minFreeBytes),
  };
}

/** Copies page PNGs into a staging folder beside the document's pages folder (`folder`). */
async function stageLocalPages(
  folder: string,
  documentId: number,
  sources: readonly string[],
): Promise<StagedPages> {
  const staging = `${folder}.staging-${crypto.randomUUID()}`;
  await fs.promises.mkdir(staging, { recursive: true });
  for (const [index, src] of sources.entries())
    await fs.promises.copyFile(src, path.join(staging, `${index}.png`));
  const rows = sources.map((_, index) => ({
    index,
    path: path.posix.join(pagesFolder(documentId), `${index}.png`),
  }));
  const exists = (p: string) =>
    fs.promises.stat(p).then(
      () => true,
      () => false,
    );
  return {
    rows,
    // The previous pages are the folder's, whatever their rows say: it is renamed aside as a whole.
    async swapIn() {
      const aside = `${folder}.old-${crypto.randomUUID()}`;
      const hadOld = await exists(folder);
      if (hadOld) await fs.promises.rename(folder, aside);
      await fs.promises.rename(staging, folder);
      return {
        async undo() {
          await fs.promises.rm(folder, { recursive: true, force: true });
          if (hadOld) await fs.promises.rename(aside, folder);
        },
        async cleanup() {
          if (hadOld) await fs.promises.rm(aside, { recursive: true, force: true });
        },
      };
    },
    discard: () => fs.promises.rm(staging, { recursive: true, force: true }),
  };
}
