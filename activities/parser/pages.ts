/**
 * Page images for the preview panel: PNG files rendered from a PDF (pdftoppm, 100 dpi), or the images a
 * PDF made by tesseract holds (pdfimages), in the parse's work folder. The file store publishes them under
 * `pages/<docId>/` (server/files.ts stagePages), swapped in while the database transaction that records
 * them is open (store.ts), so a retry or a rerun never leaves a mix of old and new pages.
 */
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
