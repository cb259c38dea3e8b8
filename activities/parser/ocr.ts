/**
 * OCR with the tesseract CLI in English and Polish, for images and for PDF pages without a text layer.
 * Images other than PNG are also turned into a PDF by tesseract itself (`txt pdf` outputs), from which the
 * page images are extracted losslessly as PNG (pages.ts), so every image type leaves PNG pages, multi-page
 * TIFFs included, without an image converter.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { OCR_LANGUAGES as LANGUAGES } from '../../domain/parser-programs';
import { ProgramFailed, run } from './run';
import { badInput, type Work } from './work';
import { stepError } from '../../domain/step-errors';

/** `eng+pol`: the languages of domain/parser-programs.ts, which the start check installs and health checks. */
export const OCR_LANGUAGES = LANGUAGES.join('+');
const OCR_TIMEOUT_MS = 180_000;

function unreadable(err: unknown): never {
  if (err instanceof ProgramFailed) throw badInput(stepError.imageUnreadable.text({}));
  throw err;
}

/** The recognized text of one image. */
export async function ocrImage(work: Work, imagePath: string): Promise<string> {
  try {
    const { stdout } = await run(work, 'tesseract', [imagePath, '-', '-l', OCR_LANGUAGES], {
      timeoutMs: OCR_TIMEOUT_MS,
      env: { OMP_THREAD_LIMIT: '1' },
      slot: 'ocr',
    });
    return stdout.toString('utf8');
  } catch (err) {
    unreadable(err);
  }
}

/** OCR of an image into text plus a PDF of its pages (the image embedded as is). */
export async function ocrImageWithPdf(work: Work, imagePath: string): Promise<{ text: string; pdf: string }> {
  const base = path.join(work.dir, 'ocr-image');
  try {
    await run(work, 'tesseract', [imagePath, base, '-l', OCR_LANGUAGES, 'txt', 'pdf'], {
      timeoutMs: OCR_TIMEOUT_MS,
      env: { OMP_THREAD_LIMIT: '1' },
      slot: 'ocr',
    });
  } catch (err) {
    unreadable(err);
  }
  return { text: await fs.readFile(`${base}.txt`, 'utf8'), pdf: `${base}.pdf` };
}
