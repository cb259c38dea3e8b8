/**
 * Test files made on the spot with the real programs the parser uses: PDFs written by hand (a text layer, or
 * a scanned page as an embedded JPEG without text), page images rendered by pdftoppm, office files made by
 * LibreOffice from text, e-mails as RFC 822 text, and speech synthesized by espeak-ng.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A PDF from objects (1-based, in order); offsets of the xref table computed. */
function assemblePdf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);

const pdfString = (s: string) => `(${s.replace(/([\\()])/g, '\\$1')})`;

/** An A4 PDF with a text layer (Helvetica, ASCII): one array of lines per page. */
export function textPdf(pages: string[][]): Buffer {
  // 1 catalog, 2 pages, 3 font, then per page: page object and its content stream.
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
  ];
  pages.forEach((lines, i) => {
    const content = [
      'BT',
      '/F1 14 Tf',
      '16 TL',
      '72 770 Td',
      ...lines.map((l) => `${pdfString(l)} '`),
      'ET',
    ].join('\n');
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
      ),
    );
    objects.push(stream('', Buffer.from(content, 'latin1')));
  });
  return assemblePdf(objects);
}

/** Pixel size of a JPEG from its start-of-frame marker. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let i = 2;
  while (i < jpeg.length) {
    const marker = jpeg[i + 1];
    const len = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3)
      return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  throw new Error('not a JPEG');
}

/** A one-page PDF that is only a JPEG image (a scan): no text layer at all. */
export function scannedPdf(jpeg: Buffer, dpi = 150): Buffer {
  const { width: widthPx, height: heightPx } = jpegSize(jpeg);
  const w = (widthPx * 72) / dpi;
  const h = (heightPx * 72) / dpi;
  const content = Buffer.from(`q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} 0 0 cm /Im0 Do Q`);
  return assemblePdf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w.toFixed(2)} ${h.toFixed(2)}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
    ),
    stream(
      `/Type /XObject /Subtype /Image /Width ${widthPx} /Height ${heightPx} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`,
      jpeg,
    ),
    stream('', content),
  ]);
}

export async function tempDir(prefix = 'media-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Renders the first page of a PDF as an image (a "scan"): PNG or JPEG bytes. */
export async function renderPage(pdf: Buffer, format: 'png' | 'jpeg', dpi = 150): Promise<Buffer> {
  const dir = await tempDir();
  try {
    await fs.writeFile(path.join(dir, 'in.pdf'), pdf);
    await exec(
      'pdftoppm',
      ['-r', String(dpi), `-${format}`, '-f', '1', '-l', '1', '-singlefile', 'in.pdf', 'page'],
      {
        cwd: dir,
      },
    );
    return await fs.readFile(path.join(dir, format === 'png' ? 'page.png' : 'page.jpg'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Converts a text (UTF-8, Polish letters welcome) with LibreOffice into docx, odt or pdf. */
export async function officeFromText(text: string, format: 'docx' | 'odt' | 'pdf'): Promise<Buffer> {
  const dir = await tempDir();
  try {
    await fs.writeFile(path.join(dir, 'text.txt'), text);
    const profile = pathToFileURL(path.join(dir, 'profile')).href;
    await exec(
      'soffice',
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        format,
        '--outdir',
        dir,
        'text.txt',
      ],
      { cwd: dir, timeout: 120_000, env: { ...process.env, HOME: dir } },
    );
    return await fs.readFile(path.join(dir, `text.${format}`));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A CSV file as LibreOffice Calc reads it (comma separated, UTF-8, its default of evaluating formulas), saved
 * as HTML: what a user opening an exported CSV in a spreadsheet would see in its cells.
 */
export async function csvAsHtml(csv: string): Promise<string> {
  const dir = await tempDir();
  try {
    await fs.writeFile(path.join(dir, 'sheet.csv'), csv);
    const profile = pathToFileURL(path.join(dir, 'profile')).href;
    await exec(
      'soffice',
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--infilter=CSV:44,34,76',
        '--convert-to',
        'html',
        '--outdir',
        dir,
        'sheet.csv',
      ],
      { cwd: dir, timeout: 120_000, env: { ...process.env, HOME: dir } },
    );
    return await fs.readFile(path.join(dir, 'sheet.html'), 'utf8');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Speech of a sentence by espeak-ng (the en-us Klatt voice, which pocketsphinx recognizes best) as WAV. */
export async function speech(ssmlOrText: string, voice = 'en-us+klatt'): Promise<Buffer> {
  const dir = await tempDir();
  try {
    const out = path.join(dir, 'speech.wav');
    const ssml = ssmlOrText.trim().startsWith('<speak>');
    await exec('espeak-ng', ['-v', voice, ...(ssml ? ['-m'] : []), '-w', out, ssmlOrText]);
    return await fs.readFile(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** An RFC 822 message with a text body and, optionally, an attachment. */
export function eml(opts: {
  subject: string;
  from: string;
  to: string;
  body: string;
  html?: boolean;
  attachment?: { filename: string; contentType: string; content: Buffer };
}): Buffer {
  const boundary = `b_${crypto.randomBytes(6).toString('hex')}`;
  const headers = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    'Date: Mon, 02 Mar 2026 10:15:00 +0100',
    'MIME-Version: 1.0',
    `Message-ID: <${crypto.randomUUID()}@example.test>`,
  ];
  const bodyType = opts.html ? 'text/html' : 'text/plain';
  if (!opts.attachment) {
    return Buffer.from(
      [
        ...headers,
        `Content-Type: ${bodyType}; charset=utf-8`,
        'Content-Transfer-Encoding: 8bit',
        '',
        opts.body,
        '',
      ].join('\r\n'),
    );
  }
  const a = opts.attachment;
  return Buffer.from(
    [
      ...headers,
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      `Content-Type: ${bodyType}; charset=utf-8`,
      'Content-Transfer-Encoding: 8bit',
      '',
      opts.body,
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      `Content-Disposition: attachment; filename="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      a.content.toString('base64').replace(/(.{76})/g, '$1\r\n'),
      `--${boundary}--`,
      '',
    ].join('\r\n'),
  );
}

/** Polish text in Windows-1250 bytes (what old Polish Windows editors save). */
export function cp1250(text: string): Buffer {
  const map: Record<string, number> = {
    ą: 0xb9,
    ć: 0xe6,
    ę: 0xea,
    ł: 0xb3,
    ń: 0xf1,
    ó: 0xf3,
    ś: 0x9c,
    ź: 0x9f,
    ż: 0xbf,
    Ą: 0xa5,
    Ć: 0xc6,
    Ę: 0xca,
    Ł: 0xa3,
    Ń: 0xd1,
    Ó: 0xd3,
    Ś: 0x8c,
    Ź: 0x8f,
    Ż: 0xaf,
  };
  return Buffer.from(
    [...text].map((c) => {
      if (map[c] !== undefined) return map[c];
      if (c.charCodeAt(0) > 0x7f) throw new Error(`no CP1250 byte for ${c} in this helper`);
      return c.charCodeAt(0);
    }),
  );
}

/**
 * A tesseract data folder (for TESSDATA_PREFIX) holding the installed English model only, as a machine
 * without the Polish one has it. `remove()` deletes the folder.
 */
export function englishOnlyTessdata(): { dir: string; remove(): void } {
  const dir = fsSync.mkdtempSync(path.join(os.tmpdir(), 'tessdata-'));
  const eng = fsSync
    .readdirSync('/usr/share/tesseract-ocr')
    .map((v) => path.join('/usr/share/tesseract-ocr', v, 'tessdata', 'eng.traineddata'))
    .find((f) => fsSync.existsSync(f));
  if (!eng) throw new Error('englishOnlyTessdata: no installed eng.traineddata');
  fsSync.symlinkSync(eng, path.join(dir, 'eng.traineddata'));
  return { dir, remove: () => fsSync.rmSync(dir, { recursive: true, force: true }) };
}
