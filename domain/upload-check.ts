/**
 * What an uploaded file really is: the accepted types of the upload page (images, pdf, doc, docx, odt, ods,
 * txt, eml, wav, json) recognised by their content (magic bytes, the zip directory of office files, the
 * header block of an e-mail, a JSON parse, text without NULs), and the rule that the file name's extension
 * must agree with the content; the zip directory of an office file also says how much it unpacks to, which
 * refuses decompression bombs before anything opens them. The document type: AUDIOFILE for a WAV recording
 * and for a JSON transcript (the import format's `{"utterances": [...]}`), TEXTFILE for everything else.
 * Pure: no I/O, so the unit test feeds it bytes.
 */
import type { DocumentType } from './enums';
import type { Rule } from './validation';

export const FILE_KINDS = [
  'png',
  'jpeg',
  'tiff',
  'gif',
  'bmp',
  'webp',
  'pdf',
  'doc',
  'docx',
  'odt',
  'ods',
  'txt',
  'eml',
  'wav',
  'json',
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

interface KindInfo {
  mime: string;
  /** Human name used in messages. */
  label: string;
  extensions: readonly string[];
}

export const KINDS: Record<FileKind, KindInfo> = {
  png: { mime: 'image/png', label: 'PNG image', extensions: ['png'] },
  jpeg: { mime: 'image/jpeg', label: 'JPEG image', extensions: ['jpg', 'jpeg', 'jpe', 'jfif'] },
  tiff: { mime: 'image/tiff', label: 'TIFF image', extensions: ['tif', 'tiff'] },
  gif: { mime: 'image/gif', label: 'GIF image', extensions: ['gif'] },
  bmp: { mime: 'image/bmp', label: 'BMP image', extensions: ['bmp'] },
  webp: { mime: 'image/webp', label: 'WebP image', extensions: ['webp'] },
  pdf: { mime: 'application/pdf', label: 'PDF document', extensions: ['pdf'] },
  doc: { mime: 'application/msword', label: 'Word 97-2003 document', extensions: ['doc'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    label: 'Word document (docx)',
    extensions: ['docx'],
  },
  odt: { mime: 'application/vnd.oasis.opendocument.text', label: 'OpenDocument text', extensions: ['odt'] },
  ods: {
    mime: 'application/vnd.oasis.opendocument.spreadsheet',
    label: 'OpenDocument spreadsheet',
    extensions: ['ods'],
  },
  txt: { mime: 'text/plain', label: 'plain text', extensions: ['txt', 'text'] },
  eml: { mime: 'message/rfc822', label: 'e-mail message', extensions: ['eml'] },
  wav: { mime: 'audio/wav', label: 'WAV audio', extensions: ['wav'] },
  json: { mime: 'application/json', label: 'JSON', extensions: ['json'] },
};

/** Every accepted extension, for messages and the upload page's accept list. */
export const ACCEPTED_EXTENSIONS: readonly string[] = FILE_KINDS.flatMap((k) => KINDS[k].extensions);

const EXTENSION_KIND = new Map<string, FileKind>(
  FILE_KINDS.flatMap((k) => KINDS[k].extensions.map((e) => [e, k] as const)),
);

/**
 * Why a file is refused, for a translated message: `key` is an i18n key under `error.upload.reason`, the
 * params are plain values (sizes as text, kinds as FileKind or a `described` code the UI translates with
 * `error.upload.kind.<kind>`). The English `message` beside it says the same for logs and API clients.
 */
export interface UploadRefusalReason {
  key: string;
  params: Record<string, string>;
}

export type UploadCheck =
  | { ok: true; kind: FileKind; mime: string; documentType: DocumentType }
  | { ok: false; status: 413 | 415; message: string; reason: UploadRefusalReason };

export const extensionOf = (filename: string): string => {
  const m = /\.([^./\\]+)$/.exec(filename.trim());
  return m ? m[1].toLowerCase() : '';
};

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));
const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;

/** A BMP needs the "BM" magic and a known DIB header size at offset 14. */
function isBmp(b: Uint8Array): boolean {
  if (b.length < 26 || !startsWith(b, [0x42, 0x4d])) return false;
  return [12, 16, 40, 52, 56, 64, 108, 124].includes(u32(b, 14));
}

function isPdf(b: Uint8Array): boolean {
  // Readers accept the header anywhere in the first 1024 bytes; away from the start, ask for the trailer too,
  // so a text that merely mentions "%PDF-" stays text.
  const at = ascii(b, 0, 1024).indexOf('%PDF-');
  return at === 0 || (at > 0 && ascii(b, Math.max(0, b.length - 2048), b.length).includes('%%EOF'));
}

/** One member of a zip archive as its central directory describes it. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (the two methods office files use). */
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the entry's local header. */
  localOffset: number;
}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; reason: string };

/** An archive with more members than this is refused: office files have dozens, rarely thousands. */
export const ZIP_MAX_ENTRIES = 10_000;

const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32;

/** The ZIP64 extended information of a central directory entry (extra field 0x0001) fills 0xFFFFFFFF fields. */
function zip64Sizes(b: Uint8Array, from: number, to: number, e: ZipEntry): boolean {
  for (let p = from; p + 4 <= to;) {
    const id = u16(b, p);
    const len = u16(b, p + 2);
    if (p + 4 + len > to) return false;
    if (id === 0x0001) {
      let q = p + 4;
      const take = () => {
        if (q + 8 > p + 4 + len) return null;
        const v = u64(b, q);
        q += 8;
        return v;
      };
      for (const field of ['uncompressedSize', 'compressedSize', 'localOffset'] as const) {
        if (e[field] !== 0xffffffff) continue;
        const v = take();
        if (v === null) return false;
        e[field] = v;
      }
      return true;
    }
    p += 4 + len;
  }
  return [e.uncompressedSize, e.compressedSize, e.localOffset].every((v) => v !== 0xffffffff);
}

/**
 * The central directory of a zip archive (APPNOTE.TXT sections 4.3.12 to 4.3.16, with ZIP64): null when the
 * bytes are no zip (no local header at the start), `ok: false` when the directory is missing, truncated,
 * points outside the file or lists more than ZIP_MAX_ENTRIES members.
 */
export function readZipDirectory(b: Uint8Array): ZipDirectory | null {
  if (!startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return null;
  const bad = (reason: string): ZipDirectory => ({ ok: false, reason });
  // End of central directory: 22 bytes plus a comment of up to 65535 bytes, searched from the end.
  const min = Math.max(0, b.length - 22 - 0xffff);
  let end = -1;
  for (let at = b.length - 22; at >= min; at--) {
    if (u32(b, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return bad('no end of central directory record');
  let count = u16(b, end + 10);
  let p = u32(b, end + 16);
  if (count === 0xffff || p === 0xffffffff) {
    // ZIP64: the locator just before the record points at the ZIP64 end of central directory.
    const locator = end - 20;
    if (locator < 0 || u32(b, locator) !== 0x07064b50) return bad('ZIP64 locator missing');
    const z = u64(b, locator + 8);
    if (z + 56 > b.length || u32(b, z) !== 0x06064b50) return bad('ZIP64 end record missing');
    count = u64(b, z + 32);
    p = u64(b, z + 48);
  }
  if (count > ZIP_MAX_ENTRIES) return bad(`more than ${ZIP_MAX_ENTRIES} members`);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > b.length || u32(b, p) !== 0x02014b50) return bad('central directory truncated');
    const nameLen = u16(b, p + 28);
    const extraLen = u16(b, p + 30);
    const commentLen = u16(b, p + 32);
    const next = p + 46 + nameLen + extraLen + commentLen;
    if (next > b.length) return bad('central directory truncated');
    const e: ZipEntry = {
      name: new TextDecoder().decode(b.subarray(p + 46, p + 46 + nameLen)),
      method: u16(b, p + 10),
      flags: u16(b, p + 8),
      compressedSize: u32(b, p + 20),
      uncompressedSize: u32(b, p + 24),
      localOffset: u32(b, p + 42),
    };
    if (!zip64Sizes(b, p + 46 + nameLen, p + 46 + nameLen + extraLen, e)) return bad('bad ZIP64 sizes');
    if (e.localOffset + 30 + e.compressedSize > b.length) return bad(`member ${i} lies outside the file`);
    entries.push(e);
    p = next;
  }
  return { ok: true, entries };
}

/** File names of a zip archive, read from its central directory (or null when it is no zip). */
export function zipEntryNames(b: Uint8Array): string[] | null {
  const dir = readZipDirectory(b);
  return dir?.ok ? dir.entries.map((e) => e.name) : null;
}

/** What a zip-based office file may unpack to before LibreOffice is given it (OFFICE_MAX_UNCOMPRESSED_BYTES). */
export const OFFICE_MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

/**
 * Deflate cannot pass about 1032:1; ordinary office XML stays far below 100:1. A member that big and that
 * compressed is a bomb (a run of one repeated byte), whatever the total.
 */
export const ZIP_MAX_RATIO = 500;
const ZIP_RATIO_FROM_BYTES = 1024 * 1024;

/** A size for a message: KiB below one MiB, else MiB with one decimal. */
export const sizeText = (n: number): string =>
  n < 1024 * 1024 ? `${Math.ceil(n / 1024)} KiB` : `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * The rule against decompression bombs, on the sizes the directory declares: the total unpacked size within
 * `maxUncompressedBytes`, and no member compressed beyond ZIP_MAX_RATIO. Null when acceptable, else the
 * message a user can act on.
 */
export function zipInflationProblem(
  entries: readonly ZipEntry[],
  maxUncompressedBytes: number,
): string | null {
  return zipInflation(entries, maxUncompressedBytes)?.message ?? null;
}

/** zipInflationProblem with the reason of the refusal (for a translated message). */
function zipInflation(
  entries: readonly ZipEntry[],
  maxUncompressedBytes: number,
): { message: string; reason: UploadRefusalReason } | null {
  const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (total > maxUncompressedBytes) {
    return {
      message: officeTooLarge(total, maxUncompressedBytes),
      reason: {
        key: 'error.upload.reason.officeTooLarge',
        params: { size: sizeText(total), max: sizeText(maxUncompressedBytes) },
      },
    };
  }
  for (const e of entries) {
    if (
      e.uncompressedSize > ZIP_RATIO_FROM_BYTES &&
      e.uncompressedSize > ZIP_MAX_RATIO * Math.max(1, e.compressedSize)
    ) {
      const params = {
        size: sizeText(e.uncompressedSize),
        compressed: sizeText(e.compressedSize),
        part: e.name,
      };
      return {
        message: `The office document unpacks to ${params.size} from ${params.compressed} in one part (${e.name}), which only a decompression bomb does: it is not converted. Save the document again from its office program and upload the new file.`,
        reason: { key: 'error.upload.reason.zipBomb', params },
      };
    }
  }
  return null;
}

export const officeTooLarge = (size: number, max: number): string =>
  `The office document unpacks to ${sizeText(size)}, more than the limit of ${sizeText(max)}: it is not converted. Split it into smaller documents or remove large embedded media, then upload it again.`;

/** The OpenDocument "mimetype" entry: first in the archive, stored uncompressed. */
function odfMimetype(b: Uint8Array): string | null {
  if (!startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || b.length < 30) return null;
  const method = u16(b, 8);
  const size = u32(b, 18);
  const nameLen = u16(b, 26);
  const extraLen = u16(b, 28);
  if (method !== 0 || ascii(b, 30, 30 + nameLen) !== 'mimetype') return null;
  const start = 30 + nameLen + extraLen;
  if (start + size > b.length || size > 200) return null;
  return ascii(b, start, start + size);
}

function zipKind(b: Uint8Array): FileKind | 'zip' | null {
  const names = zipEntryNames(b);
  if (!names) return startsWith(b, [0x50, 0x4b, 0x03, 0x04]) ? 'zip' : null;
  const mimetype = odfMimetype(b);
  if (mimetype === KINDS.odt.mime) return 'odt';
  if (mimetype === KINDS.ods.mime) return 'ods';
  if (names.includes('[Content_Types].xml') && names.some((n) => n.startsWith('word/'))) return 'docx';
  return 'zip';
}

/** Recognises the binary formats by their signatures; null when none matches. */
export function detectBinary(b: Uint8Array): FileKind | 'zip' | 'riff' | 'ole2' | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'gif';
  if (isBmp(b)) return 'bmp';
  if (ascii(b, 0, 4) === 'RIFF' && b.length >= 12) {
    const form = ascii(b, 8, 12);
    if (form === 'WEBP') return 'webp';
    if (form === 'WAVE') return 'wav';
    return 'riff';
  }
  // OLE2 compound file: Word 97-2003 (also old Excel/PowerPoint, which the extension rule then refuses).
  if (startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  const zip = zipKind(b);
  if (zip) return zip;
  if (isPdf(b)) return 'pdf';
  return null;
}

/** Text: no NUL and no control characters other than whitespace, ESC and SUB; UTF-8 or else Latin-1. */
const CONTROL = new Uint8Array(256);
for (let x = 0; x < 0x20; x++) CONTROL[x] = 1;
for (const x of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1a, 0x1b]) CONTROL[x] = 0;
CONTROL[0x7f] = 1;

export function decodeText(b: Uint8Array): string | null {
  for (let i = 0; i < b.length; i++) if (CONTROL[b[i]]) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return new TextDecoder('latin1').decode(b);
  }
}

const HEADER_LINE = /^[!-9;-~]+:/; // field name: printable ASCII except ':' (RFC 5322 section 2.2)
const MAIL_FIELDS = [
  'from',
  'to',
  'subject',
  'date',
  'message-id',
  'received',
  'return-path',
  'mime-version',
  'sender',
  'reply-to',
];

/** An RFC 822 message: a header block of well-formed fields (at least two known ones) before a blank line. */
export function isEmail(text: string): boolean {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  if (lines[0]?.startsWith('From ')) i++; // mbox separator line
  const fields = new Set<string>();
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') break;
    if (/^[ \t]/.test(line)) {
      if (fields.size === 0) return false; // a continuation line needs a field before it
      continue;
    }
    if (!HEADER_LINE.test(line)) return false;
    fields.add(line.slice(0, line.indexOf(':')).toLowerCase());
  }
  return MAIL_FIELDS.filter((f) => fields.has(f)).length >= 2;
}

const invalid = Symbol('invalid JSON');

/** The parsed JSON of a text, or `invalid` when it is none. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return invalid;
  }
}

/**
 * A JSON value of the transcript import's shape (`{"utterances": [...]}`, activities/parser/json-transcript.ts
 * checks the rest): the file parser turns it into utterances, so its document is a recording's transcript
 * (AUDIOFILE, opened in the speech workspace). Any other JSON stays a text document.
 */
export function isTranscriptJson(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { utterances?: unknown }).utterances)
  );
}

const described = (kind: string | null): string => {
  if (!kind) return 'content of no accepted type';
  if (kind === 'binary') return 'binary data';
  if (kind === 'zip') return 'a zip archive that is not a docx, odt or ods document';
  if (kind === 'riff') return 'a RIFF file that is neither WAV nor WebP';
  return `a ${KINDS[kind as FileKind]?.label ?? kind}`;
};

/** The accepted kinds that are zip archives, so decompression bombs. */
const ZIP_KINDS: ReadonlySet<string> = new Set<FileKind>(['docx', 'odt', 'ods']);

const refuse = (message: string, key: string, params: Record<string, string> = {}): UploadCheck => ({
  ok: false,
  status: 415,
  message,
  reason: { key, params },
});

/** What `described` names, as a code the UI translates (`error.upload.kind.<code>`). */
const foundCode = (kind: string | null): string => kind ?? 'unknown';

/**
 * The size part of checkUpload: a refusal (413) when `size` is over `maxBytes`, else null. The upload page
 * asks this first, so that it does not read a file it will refuse anyway.
 */
export function checkUploadSize(size: number, maxBytes: number): Extract<UploadCheck, { ok: false }> | null {
  if (size <= maxBytes) return null;
  return {
    ok: false,
    status: 413,
    message: `The file is larger than the limit of ${maxBytes} bytes`,
    reason: {
      key: 'error.upload.reason.tooLarge',
      params: { size: sizeText(size), max: sizeText(maxBytes) },
    },
  };
}

/**
 * Checks an upload: size (413 over `maxBytes`), accepted extension, content recognised and agreeing with the
 * extension (415 otherwise, with a message that says what was expected and what was found).
 */
export function checkUpload(
  filename: string,
  bytes: Uint8Array,
  maxBytes: number,
  maxUncompressedBytes: number = OFFICE_MAX_UNCOMPRESSED_BYTES,
): UploadCheck {
  const tooBig = checkUploadSize(bytes.length, maxBytes);
  if (tooBig) return tooBig;
  const ext = extensionOf(filename);
  const expected = EXTENSION_KIND.get(ext);
  const accepted = ACCEPTED_EXTENSIONS.map((e) => `.${e}`).join(', ');
  if (!expected) {
    return ext
      ? refuse(
          `Files of type .${ext} are not accepted; accepted types: ${accepted}`,
          'error.upload.reason.extension',
          {
            ext,
            accepted,
          },
        )
      : refuse(
          `Files without an extension are not accepted; accepted types: ${accepted}`,
          'error.upload.reason.noExtension',
          {
            accepted,
          },
        );
  }
  if (bytes.length === 0)
    return refuse(`The file ${filename} is empty`, 'error.upload.reason.empty', { filename });
  const binary = detectBinary(bytes);
  const ok = (audio = expected === 'wav'): UploadCheck => ({
    ok: true,
    kind: expected,
    mime: KINDS[expected].mime,
    documentType: audio ? 'AUDIOFILE' : 'TEXTFILE',
  });
  const mismatch = (found: string | null) =>
    refuse(
      `The file ${filename} should be a ${KINDS[expected].label} (.${ext}), but it is ${described(found)}`,
      'error.upload.reason.mismatch',
      { filename, expected, ext, found: foundCode(found) },
    );

  if (binary && binary === expected && ZIP_KINDS.has(binary)) {
    const dir = readZipDirectory(bytes);
    if (!dir?.ok) {
      const why = dir?.reason ?? 'no zip';
      return refuse(
        `The file ${filename} is a damaged zip archive (${why})`,
        'error.upload.reason.damagedZip',
        { filename },
      );
    }
    const problem = zipInflation(dir.entries, maxUncompressedBytes);
    if (problem) return { ok: false, status: 413, ...problem };
  }
  if (binary) return binary === expected ? ok() : mismatch(binary);
  if (!['txt', 'eml', 'json'].includes(expected)) return mismatch(null);
  const text = decodeText(bytes);
  if (text === null) return mismatch('binary');
  if (expected === 'json') {
    const value = parseJson(text);
    if (value === invalid)
      return refuse(`The file ${filename} is not valid JSON`, 'error.upload.reason.invalidJson', {
        filename,
      });
    return ok(isTranscriptJson(value));
  }
  if (expected === 'eml' && !isEmail(text)) {
    return refuse(
      `The file ${filename} is not an e-mail message (no RFC 822 header block)`,
      'error.upload.reason.notEmail',
      {
        filename,
      },
    );
  }
  return ok();
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * Unicode's bidirectional controls (property Bidi_Control: ALM, LRM, RLM, the embeddings and overrides
 * U+202A..U+202E, the isolates U+2066..U+2069): in a name they reorder what is shown, so that
 * `\u202Etxt.exe` reads as `exe.txt` (issue 25 finding 8, "Trojan Source").
 */
export const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** A text that UTF-8 can carry: no half of a surrogate pair (the database and URL encoding refuse those). */
export const isWellFormedText = (v: string): boolean => !LONE_SURROGATE.test(v);

/** The text with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder would. */
export const toWellFormedText = (v: string): string =>
  v.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');

/**
 * A file name a user gives a document (creation from text, rename): one name, not a path (no / or \), no
 * NUL or other control character, no bidirectional control, and well-formed Unicode. The length is documentFilenameRule's.
 */
export const filenameCharactersRule: Rule = (v) =>
  /[\\/]/.test(v) || CONTROL_CHARACTER.test(v) || BIDI_CONTROL.test(v) || !isWellFormedText(v)
    ? { code: 'Pattern', key: 'entity.validation.pattern' }
    : null;
