/**
 * Page images for the preview panel: PNG files rendered from a PDF (pdftoppm, 100 dpi), or the images a
 * PDF made by tesseract holds (pdfimages), and their publication under FILES_DIR/pages/<docId>/<index>.png.
 * New pages are written to a staging folder first and swapped in while the database transaction that
 * records them is open (store.ts), so a retry or a rerun never leaves a mix of old and new pages.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { run } from './run';
import { throwIfCancelled, type Work } from './work';

export const PREVIEW_DPI = 100;
const RENDER_TIMEOUT_MS = 120_000;

/** Renders every page of a PDF to PNG, one pdftoppm call per page (a heartbeat and a cancel check between). */
export async function renderPdfPages(work: Work, pdf: string, pageCount: number): Promise<string[]> {
  const pages: string[] = [];
  for (let page = 1; page <= pageCount; page++) {
    throwIfCancelled(work);
    const base = path.join(work.dir, `preview-${page}`);
    const p = String(page);
    await run(
      work,
      'pdftoppm',
      ['-r', String(PREVIEW_DPI), '-png', '-f', p, '-l', p, '-singlefile', pdf, base],
      {
        timeoutMs: RENDER_TIMEOUT_MS,
      },
    );
    pages.push(`${base}.png`);
    work.heartbeat({ stage: 'page images', page, of: pageCount });
  }
  return pages;
}

/** The first raster image of each page of a PDF (as tesseract writes them), extracted as PNG. */
export async function extractPageImages(work: Work, pdf: string): Promise<string[]> {
  const { stdout } = await run(work, 'pdfimages', ['-list', pdf], { timeoutMs: RENDER_TIMEOUT_MS });
  const firstImageOfPage = new Map<number, number>();
  for (const line of stdout.toString('utf8').split('\n').slice(2)) {
    const cols = line.trim().split(/\s+/);
    const [page, num, type] = [Number(cols[0]), Number(cols[1]), cols[2]];
    if (type === 'image' && Number.isInteger(page) && !firstImageOfPage.has(page))
      firstImageOfPage.set(page, num);
  }
  const prefix = path.join(work.dir, 'img');
  await run(work, 'pdfimages', ['-png', pdf, prefix], { timeoutMs: RENDER_TIMEOUT_MS });
  const width = (n: number) => String(n).padStart(3, '0');
  return [...firstImageOfPage.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, num]) => `${prefix}-${width(num)}.png`);
}

/** Where a document's pages live, relative to FILES_DIR (document_pages.path holds `<this>/<index>.png`). */
export const pagesFolder = (documentId: number): string => path.posix.join('pages', String(documentId));

export interface StagedPages {
  /** document_pages rows to insert. */
  rows: { index: number; path: string }[];
  /** Puts the staged pages in place (old ones aside); returns how to undo it and how to drop the old ones. */
  swapIn(): Promise<{ undo(): Promise<void>; cleanup(): Promise<void> }>;
  /** Drops the staging folder (when the swap did not happen). */
  discard(): Promise<void>;
}

/** Copies page PNGs into a staging folder beside the document's pages folder. */
export async function stagePages(
  filesDir: string,
  documentId: number,
  sources: string[],
): Promise<StagedPages> {
  const folder = path.join(filesDir, pagesFolder(documentId));
  const staging = `${folder}.staging-${crypto.randomUUID()}`;
  await fs.mkdir(staging, { recursive: true });
  for (const [index, src] of sources.entries()) await fs.copyFile(src, path.join(staging, `${index}.png`));
  const rows = sources.map((_, index) => ({
    index,
    path: path.posix.join(pagesFolder(documentId), `${index}.png`),
  }));
  const exists = (p: string) =>
    fs.stat(p).then(
      () => true,
      () => false,
    );
  return {
    rows,
    async swapIn() {
      const aside = `${folder}.old-${crypto.randomUUID()}`;
      const hadOld = await exists(folder);
      if (hadOld) await fs.rename(folder, aside);
      await fs.rename(staging, folder);
      return {
        async undo() {
          await fs.rm(folder, { recursive: true, force: true });
          if (hadOld) await fs.rename(aside, folder);
        },
        async cleanup() {
          if (hadOld) await fs.rm(aside, { recursive: true, force: true });
        },
      };
    },
    discard: () => fs.rm(staging, { recursive: true, force: true }),
  };
}
