/**
 * doc, docx, odt, ods: LibreOffice headless converts the file to PDF, which is then parsed as a PDF (text,
 * OCR of image-only pages, page images). Each conversion gets its own LibreOffice profile inside the parse's
 * temporary folder, so conversions can run in parallel on one worker.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parsePdf, type ParsedPdf } from './pdf';
import { ProgramFailed, run } from './run';
import { badInput, type Work } from './work';

const CONVERT_TIMEOUT_MS = 240_000;

export async function parseOffice(work: Work, input: string): Promise<ParsedPdf> {
  const outDir = path.join(work.dir, 'office');
  const profile = pathToFileURL(path.join(work.dir, 'lo-profile')).href;
  try {
    await run(
      work,
      'soffice',
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--nologo',
        '--nodefault',
        '--nolockcheck',
        '--convert-to',
        'pdf',
        '--outdir',
        outDir,
        input,
      ],
      { timeoutMs: CONVERT_TIMEOUT_MS, env: { HOME: work.dir } },
    );
  } catch (err) {
    if (!(err instanceof ProgramFailed)) throw err;
  }
  const pdf = path.join(outDir, `${path.parse(input).name}.pdf`);
  const made = await fs.stat(pdf).then(
    (s) => s.size > 0,
    () => false,
  );
  // LibreOffice exits 0 even when it cannot load the file: no PDF is the sign.
  if (!made)
    throw badInput(
      'The office document cannot be opened (damaged, password-protected or not really an office file): save it again and upload the new file.',
    );
  return parsePdf(work, pdf, 'office document');
}
