/**
 * PDF: the text layer with `pdftotext -layout`, page by page; a page with (almost) no text is a scan and is
 * rendered at 200 dpi and OCR'd; every page also becomes a preview image. Damaged and password-protected
 * files fail as bad input.
 */
import path from 'node:path';
import { ocrImage } from './ocr';
import { renderPdfPages } from './pages';
import { ProgramFailed, run } from './run';
import { stepError, type ParsedWhat } from '../../domain/step-errors';
import { badInput, throwIfCancelled, type Work } from './work';

/** A page whose text layer has fewer letters or digits than this is treated as scanned. */
export const MIN_TEXT_CHARS = 16;
const OCR_DPI = 200;
const TIMEOUT_MS = 120_000;

export interface ParsedPdf {
  content: string;
  pages: string[];
  ocrPages: number[];
}

async function pageCount(work: Work, pdf: string, what: ParsedWhat): Promise<number> {
  try {
    const { stdout } = await run(work, 'pdfinfo', [pdf], { timeoutMs: TIMEOUT_MS });
    const m = /^Pages:\s+(\d+)/m.exec(stdout.toString('utf8'));
    if (!m) throw badInput(stepError.pdfNoPages.text({ what }));
    return Number(m[1]);
  } catch (err) {
    if (err instanceof ProgramFailed) {
      if (/password/i.test(err.stderr)) throw badInput(stepError.pdfPassword.text({ what }));
      throw badInput(stepError.pdfDamaged.text({ what }));
    }
    throw err;
  }
}

const tidy = (page: string): string =>
  page
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');

export async function parsePdf(work: Work, pdf: string, what: ParsedWhat = 'pdf'): Promise<ParsedPdf> {
  const count = await pageCount(work, pdf, what);
  let layer: string;
  try {
    layer = (
      await run(work, 'pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-'], { timeoutMs: TIMEOUT_MS })
    ).stdout.toString('utf8');
  } catch (err) {
    if (err instanceof ProgramFailed) throw badInput(stepError.pdfTextDamaged.text({ what }));
    throw err;
  }
  // pdftotext ends every page with a form feed.
  const texts = layer.split('\f').slice(0, count);
  while (texts.length < count) texts.push('');
  const ocrPages: number[] = [];
  for (let i = 0; i < count; i++) {
    throwIfCancelled(work);
    if ((texts[i].match(/[\p{L}\p{N}]/gu) ?? []).length >= MIN_TEXT_CHARS) continue;
    const base = path.join(work.dir, `scan-${i + 1}`);
    const p = String(i + 1);
    await run(work, 'pdftoppm', ['-r', String(OCR_DPI), '-png', '-f', p, '-l', p, '-singlefile', pdf, base], {
      timeoutMs: TIMEOUT_MS,
    });
    texts[i] = await ocrImage(work, `${base}.png`);
    ocrPages.push(i);
    work.heartbeat({ stage: 'ocr', page: i + 1, of: count });
  }
  const pages = await renderPdfPages(work, pdf, count);
  return { content: texts.map(tidy).join('\n\n'), pages, ocrPages };
}
