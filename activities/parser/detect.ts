/**
 * Which parser reads a stored file: from documents.mime_type (set at intake from the content), with the
 * file's first bytes and its name as fallbacks for a generic or unknown type.
 */
import path from 'node:path';

export type FileKind = 'txt' | 'pdf' | 'image' | 'office' | 'eml' | 'json' | 'wav';

export interface Detected {
  kind: FileKind;
  /** Extension the external programs get (soffice and tesseract look at it). */
  ext: string;
}

const BY_MIME: Record<string, Detected> = {
  'text/plain': { kind: 'txt', ext: '.txt' },
  'application/pdf': { kind: 'pdf', ext: '.pdf' },
  'image/png': { kind: 'image', ext: '.png' },
  'image/jpeg': { kind: 'image', ext: '.jpg' },
  'image/tiff': { kind: 'image', ext: '.tif' },
  'image/bmp': { kind: 'image', ext: '.bmp' },
  'image/x-ms-bmp': { kind: 'image', ext: '.bmp' },
  'image/gif': { kind: 'image', ext: '.gif' },
  'image/webp': { kind: 'image', ext: '.webp' },
  'application/msword': { kind: 'office', ext: '.doc' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'office', ext: '.docx' },
  'application/vnd.oasis.opendocument.text': { kind: 'office', ext: '.odt' },
  'application/vnd.oasis.opendocument.spreadsheet': { kind: 'office', ext: '.ods' },
  'message/rfc822': { kind: 'eml', ext: '.eml' },
  'application/json': { kind: 'json', ext: '.json' },
  'audio/wav': { kind: 'wav', ext: '.wav' },
  'audio/x-wav': { kind: 'wav', ext: '.wav' },
  'audio/wave': { kind: 'wav', ext: '.wav' },
  'audio/vnd.wave': { kind: 'wav', ext: '.wav' },
};

const BY_EXT: Record<string, Detected> = {
  '.txt': BY_MIME['text/plain'],
  '.pdf': BY_MIME['application/pdf'],
  '.png': BY_MIME['image/png'],
  '.jpg': BY_MIME['image/jpeg'],
  '.jpeg': BY_MIME['image/jpeg'],
  '.tif': BY_MIME['image/tiff'],
  '.tiff': BY_MIME['image/tiff'],
  '.bmp': BY_MIME['image/bmp'],
  '.gif': BY_MIME['image/gif'],
  '.webp': BY_MIME['image/webp'],
  '.doc': { kind: 'office', ext: '.doc' },
  '.docx': { kind: 'office', ext: '.docx' },
  '.odt': { kind: 'office', ext: '.odt' },
  '.ods': { kind: 'office', ext: '.ods' },
  '.eml': BY_MIME['message/rfc822'],
  '.json': BY_MIME['application/json'],
  '.wav': BY_MIME['audio/wav'],
};

function sniff(head: Buffer): Detected | null {
  const ascii = head.subarray(0, 16).toString('latin1');
  if (ascii.startsWith('%PDF-')) return BY_MIME['application/pdf'];
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return BY_MIME['image/png'];
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return BY_MIME['image/jpeg'];
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return BY_MIME['image/tiff'];
  if (ascii.startsWith('GIF8')) return BY_MIME['image/gif'];
  if (ascii.startsWith('BM')) return BY_MIME['image/bmp'];
  if (ascii.startsWith('RIFF') && head.subarray(8, 12).toString('latin1') === 'WAVE')
    return BY_MIME['audio/wav'];
  if (ascii.startsWith('RIFF') && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return BY_MIME['image/webp'];
  return null;
}

/** The parser for a file, or null when the type is not one the parser reads. */
export function detectKind(mimeType: string, filename: string, head: Buffer): Detected | null {
  const mime = mimeType.split(';')[0].trim().toLowerCase();
  if (BY_MIME[mime]) return BY_MIME[mime];
  if (mime.startsWith('image/'))
    return { kind: 'image', ext: path.extname(filename).toLowerCase() || '.img' };
  const byContent = sniff(head);
  if (byContent) return byContent;
  const ext = path.extname(filename).toLowerCase();
  // Office files are ZIP or OLE containers: the name tells them apart; soffice reads the content anyway.
  return BY_EXT[ext] ?? null;
}
