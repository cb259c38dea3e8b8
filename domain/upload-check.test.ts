import {
  checkUpload,
  isTranscriptJson,
  decodeText,
  detectBinary,
  filenameCharactersRule,
  isEmail,
  readZipDirectory,
  toWellFormedText,
  zipEntryNames,
  zipInflationProblem,
} from './upload-check';
import { zipOf } from '../tests/support/zip';

const LIMIT = 1024 * 1024;
const bytes = (...parts: (string | number[] | Uint8Array)[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p as number[]))),
  );

/** A stored (uncompressed) zip archive with the given entries, in order. */
const zip = (entries: [string, string][]): Buffer =>
  zipOf(entries.map(([name, data]) => ({ name, data: Buffer.from(data), deflate: false })));

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest');
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF');
const TIFF_LE = bytes([0x49, 0x49, 0x2a, 0x00], 'rest');
const TIFF_BE = bytes([0x4d, 0x4d, 0x00, 0x2a], 'rest');
const GIF = bytes('GIF89a', [1, 0, 1, 0]);
const BMP = (() => {
  const b = Buffer.alloc(40);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(40, 2);
  b.writeUInt32LE(40, 14);
  return b;
})();
const WEBP = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ');
const WAV = bytes('RIFF', [36, 0, 0, 0], 'WAVEfmt ', Buffer.alloc(24));
const PDF = bytes('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const DOC = bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], Buffer.alloc(64));
const DOCX = zip([
  ['[Content_Types].xml', '<Types/>'],
  ['_rels/.rels', '<Relationships/>'],
  ['word/document.xml', '<w:document/>'],
]);
const ODT = zip([
  ['mimetype', 'application/vnd.oasis.opendocument.text'],
  ['content.xml', '<office:document-content/>'],
]);
const ODS = zip([
  ['mimetype', 'application/vnd.oasis.opendocument.spreadsheet'],
  ['content.xml', '<office:document-content/>'],
]);
const PLAIN_ZIP = zip([['readme.txt', 'hello']]);
const EML = bytes(
  'From: Alice <alice@example.test>\r\nTo: bob@example.test\r\nSubject: Hello\r\n  folded\r\n\r\nBody text\r\n',
);
const TXT_UTF8 = Buffer.from('Zażółć gęślą jaźń\nsecond line\n', 'utf8');
const TXT_LATIN1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Latin-1
const JSON_DOC = Buffer.from('{"utterances": []}');

describe('checkUpload accepts every accepted type by its content', () => {
  it.each([
    ['scan.png', PNG, 'png', 'image/png'],
    ['photo.JPG', JPEG, 'jpeg', 'image/jpeg'],
    ['photo.jpeg', JPEG, 'jpeg', 'image/jpeg'],
    ['page.tif', TIFF_LE, 'tiff', 'image/tiff'],
    ['page.tiff', TIFF_BE, 'tiff', 'image/tiff'],
    ['anim.gif', GIF, 'gif', 'image/gif'],
    ['old.bmp', BMP, 'bmp', 'image/bmp'],
    ['new.webp', WEBP, 'webp', 'image/webp'],
    ['report.pdf', PDF, 'pdf', 'application/pdf'],
    ['letter.doc', DOC, 'doc', 'application/msword'],
    ['letter.docx', DOCX, 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['letter.odt', ODT, 'odt', 'application/vnd.oasis.opendocument.text'],
    ['sheet.ods', ODS, 'ods', 'application/vnd.oasis.opendocument.spreadsheet'],
    ['notes.txt', TXT_UTF8, 'txt', 'text/plain'],
    ['legacy.txt', TXT_LATIN1, 'txt', 'text/plain'],
    ['mail.eml', EML, 'eml', 'message/rfc822'],
    ['settings.json', Buffer.from('{"utterances": "none", "a": [1]}'), 'json', 'application/json'],
    ['list.json', Buffer.from('[{"utterances": []}]'), 'json', 'application/json'],
  ])('%s', (name, content, kind, mime) => {
    expect(checkUpload(name, content, LIMIT)).toEqual({ ok: true, kind, mime, documentType: 'TEXTFILE' });
  });

  it('marks a wav file as an AUDIOFILE document', () => {
    expect(checkUpload('speech.wav', WAV, LIMIT)).toEqual({
      ok: true,
      kind: 'wav',
      mime: 'audio/wav',
      documentType: 'AUDIOFILE',
    });
  });

  it('marks a JSON transcript (the import format) as an AUDIOFILE document, other JSON as text', () => {
    const transcript = Buffer.from(
      '\uFEFF{"utterances": [{"actor": "SPEAKER1", "tokens": [{"value": "Hi", "tsStart": 0, "tsEnd": 300}]}]}',
    );
    for (const bytes of [transcript, JSON_DOC])
      expect(checkUpload('transcript.json', bytes, LIMIT)).toEqual({
        ok: true,
        kind: 'json',
        mime: 'application/json',
        documentType: 'AUDIOFILE',
      });
    expect(isTranscriptJson({ utterances: [] })).toBe(true);
    for (const other of [null, [], 'utterances', { utterances: {} }, { tokens: [] }])
      expect(isTranscriptJson(other)).toBe(false);
    // The same bytes in a .txt file are a text.
    expect(checkUpload('transcript.txt', transcript, LIMIT)).toMatchObject({ documentType: 'TEXTFILE' });
  });

  it('accepts a text file that happens to be JSON or an e-mail', () => {
    expect(checkUpload('a.txt', JSON_DOC, LIMIT).ok).toBe(true);
    expect(checkUpload('a.txt', EML, LIMIT).ok).toBe(true);
  });

  it('keeps a text that merely mentions %PDF- as text', () => {
    expect(checkUpload('a.txt', Buffer.from('The header is "%PDF-1.7" in every file.'), LIMIT).ok).toBe(true);
  });
});

describe('checkUpload refuses', () => {
  const refusal = (name: string, content: Uint8Array, limit = LIMIT) => {
    const r = checkUpload(name, content, limit);
    if (r.ok) throw new Error(`${name} was accepted`);
    return r;
  };

  it('a file over the size limit with 413', () => {
    expect(refusal('big.txt', Buffer.alloc(11, 0x61), 10)).toMatchObject({ status: 413 });
  });

  it('an extension that is not accepted, naming the accepted ones', () => {
    const r = refusal('tool.exe', bytes('MZ', Buffer.alloc(10)));
    expect(r.status).toBe(415);
    expect(r.message).toMatch(/\.exe are not accepted/);
    expect(r.message).toMatch(/\.pdf/);
    expect(refusal('README', TXT_UTF8).message).toMatch(/without an extension/);
  });

  it('content that does not agree with the extension, saying what it is', () => {
    expect(refusal('scan.png', PDF).message).toBe(
      'The file scan.png should be a PNG image (.png), but it is a PDF document',
    );
    expect(refusal('notes.txt', PNG).message).toMatch(/should be a plain text .*but it is a PNG image/);
    expect(refusal('speech.wav', WEBP).message).toMatch(/but it is a WebP image/);
    expect(refusal('letter.docx', PLAIN_ZIP).message).toMatch(/zip archive that is not a docx/);
    expect(refusal('letter.docx', ODT).message).toMatch(/OpenDocument text/);
    expect(refusal('sheet.ods', ODT).status).toBe(415);
    expect(refusal('report.pdf', TXT_UTF8).message).toMatch(/content of no accepted type/);
  });

  it('binary data under a text extension', () => {
    expect(refusal('notes.txt', bytes('abc', [0], 'def')).message).toMatch(/binary data/);
    expect(refusal('notes.txt', bytes('abc', [0x01], 'def')).status).toBe(415);
  });

  it('invalid JSON and a text without a mail header block', () => {
    expect(refusal('a.json', Buffer.from('{"a": ')).message).toMatch(/not valid JSON/);
    expect(refusal('a.eml', Buffer.from('Dear Bob,\n\nhello\n')).message).toMatch(/not an e-mail/);
  });

  it('an empty file', () => {
    expect(refusal('empty.txt', Buffer.alloc(0)).message).toMatch(/is empty/);
  });

  it('with a reason the UI translates: an i18n key and plain parameters', () => {
    expect(refusal('big.txt', Buffer.alloc(2048, 0x61), 1024).reason).toEqual({
      key: 'error.upload.reason.tooLarge',
      params: { size: '2 KiB', max: '1 KiB' },
    });
    expect(refusal('tool.exe', bytes('MZ', Buffer.alloc(10))).reason).toMatchObject({
      key: 'error.upload.reason.extension',
      params: { ext: 'exe', accepted: expect.stringContaining('.pdf') },
    });
    expect(refusal('README', TXT_UTF8).reason.key).toBe('error.upload.reason.noExtension');
    expect(refusal('empty.txt', Buffer.alloc(0)).reason).toEqual({
      key: 'error.upload.reason.empty',
      params: { filename: 'empty.txt' },
    });
    expect(refusal('scan.png', PDF).reason).toEqual({
      key: 'error.upload.reason.mismatch',
      params: { filename: 'scan.png', expected: 'png', ext: 'png', found: 'pdf' },
    });
    expect(refusal('notes.txt', bytes('abc', [0], 'def')).reason.params.found).toBe('binary');
    expect(refusal('report.pdf', TXT_UTF8).reason.params.found).toBe('unknown');
    expect(refusal('letter.docx', PLAIN_ZIP).reason.params.found).toBe('zip');
    expect(refusal('a.json', Buffer.from('{"a": ')).reason.key).toBe('error.upload.reason.invalidJson');
    expect(refusal('a.eml', Buffer.from('Dear Bob,\n\nhello\n')).reason.key).toBe(
      'error.upload.reason.notEmail',
    );
  });
});

describe('detectors', () => {
  it('reads zip entry names from the central directory', () => {
    expect(zipEntryNames(DOCX)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    expect(zipEntryNames(PDF)).toBeNull();
    expect(zipEntryNames(bytes([0x50, 0x4b, 0x03, 0x04], 'truncated'))).toBeNull();
  });

  it('tells RIFF forms apart and does not take a short "BM" text for a bitmap', () => {
    expect(detectBinary(WAV)).toBe('wav');
    expect(detectBinary(WEBP)).toBe('webp');
    expect(detectBinary(bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'))).toBe('riff');
    expect(detectBinary(Buffer.from('BMW cars are fast, they say, very fast indeed.'))).toBeNull();
  });

  it('decodes UTF-8, falls back to Latin-1, refuses NULs', () => {
    expect(decodeText(TXT_UTF8)).toBe('Zażółć gęślą jaźń\nsecond line\n');
    expect(decodeText(TXT_LATIN1)).toBe('café\n');
    expect(decodeText(bytes('a', [0], 'b'))).toBeNull();
  });

  it('recognises an mbox-style message and refuses a continuation line first', () => {
    expect(isEmail('From alice Mon Jan 1\nFrom: a@b.c\nDate: Mon, 1 Jan 2024\n\nbody')).toBe(true);
    expect(isEmail(' folded\nFrom: a@b.c\nTo: b@c.d\n\n')).toBe(false);
    expect(isEmail('Subject: only one known field\n\nbody')).toBe(false);
  });
});

/** The archive with the sizes its central directory declares for one member replaced. */
function declaring(
  archive: Buffer,
  name: string,
  sizes: { compressed?: number; uncompressed: number },
): Buffer {
  const b = Buffer.from(archive);
  for (let p = b.indexOf('PK\x01\x02', 0, 'latin1'); p >= 0; p = b.indexOf('PK\x01\x02', p + 4, 'latin1')) {
    if (b.toString('utf8', p + 46, p + 46 + b.readUInt16LE(p + 28)) !== name) continue;
    if (sizes.compressed !== undefined) b.writeUInt32LE(sizes.compressed, p + 20);
    b.writeUInt32LE(sizes.uncompressed, p + 24);
  }
  return b;
}

describe('decompression bombs', () => {
  const MiB = 1024 * 1024;

  it('reads the sizes of every member from the central directory', () => {
    const dir = readZipDirectory(DOCX);
    expect(dir).toMatchObject({ ok: true });
    if (!dir?.ok) return;
    expect(dir.entries.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
      ['[Content_Types].xml', 0, 8],
      ['_rels/.rels', 0, 16],
      ['word/document.xml', 0, 13],
    ]);
    expect(readZipDirectory(PDF)).toBeNull();
    expect(readZipDirectory(bytes([0x50, 0x4b, 0x03, 0x04], 'truncated'))).toMatchObject({ ok: false });
    // A directory that points past the end of the file.
    expect(
      readZipDirectory(declaring(DOCX, 'word/document.xml', { compressed: 5000, uncompressed: 5000 })),
    ).toEqual({ ok: false, reason: 'member 2 lies outside the file' });
  });

  it('refuses an office upload that unpacks to more than the limit with 413, and one compressed like a bomb', () => {
    const big = checkUpload(
      'big.docx',
      declaring(DOCX, 'word/document.xml', { uncompressed: 100 * MiB }),
      LIMIT,
    );
    expect(big).toEqual({
      ok: false,
      status: 413,
      message: expect.stringMatching(
        /^The office document unpacks to 100 MiB, more than the limit of 64 MiB/,
      ),
      reason: { key: 'error.upload.reason.officeTooLarge', params: { size: '100 MiB', max: '64 MiB' } },
    });
    const odt = checkUpload('a.odt', declaring(ODT, 'content.xml', { uncompressed: 70 * MiB }), LIMIT);
    expect(odt).toMatchObject({ ok: false, status: 413 });
    // 10 MiB from 13 bytes: within the total, but no real document compresses like that.
    const dense = checkUpload(
      'dense.docx',
      declaring(DOCX, 'word/document.xml', { uncompressed: 10 * MiB }),
      LIMIT,
    );
    expect(dense).toMatchObject({
      ok: false,
      status: 413,
      message: expect.stringMatching(/decompression bomb/),
    });
    // The limit is the caller's.
    expect(
      checkUpload(
        'big.docx',
        declaring(DOCX, 'word/document.xml', { uncompressed: 100 * MiB }),
        LIMIT,
        200 * MiB,
      ),
    ).toMatchObject({ ok: false, message: expect.stringMatching(/decompression bomb/) });
    expect(checkUpload('letter.docx', DOCX, LIMIT).ok).toBe(true);
  });

  it('accepts an ordinary compression ratio', () => {
    const entry = { name: 'a.xml', method: 8, flags: 0, localOffset: 0 };
    expect(
      zipInflationProblem([{ ...entry, compressedSize: MiB, uncompressedSize: 20 * MiB }], 64 * MiB),
    ).toBeNull();
    expect(
      zipInflationProblem([{ ...entry, compressedSize: 10, uncompressedSize: 900 * 1024 }], 64 * MiB),
    ).toBeNull();
  });
});

describe('filenameCharactersRule', () => {
  it('refuses lone surrogates, control characters and paths; accepts any well-formed name', () => {
    const bidi = ['\u202e_evil.txt', 'a\u202ab.txt', 'a\u2066b\u2069.txt', 'a\u200fb.txt', 'a\u061cb.txt'];
    for (const bad of [
      'a\ud800.txt',
      '\udc00',
      'a\u0000.txt',
      'tab\t.txt',
      'a/b.txt',
      'a\\b.txt',
      '\u007f',
      ...bidi,
    ])
      expect([bad, filenameCharactersRule(bad)]).toEqual([
        bad,
        { code: 'Pattern', key: 'entity.validation.pattern' },
      ]);
    for (const good of [
      'raport końcowy.docx',
      'smile \ud83d\ude00.txt',
      '..x.txt',
      'a:b?.txt',
      'שלום.txt',
      'مرحبا.txt',
    ])
      expect(filenameCharactersRule(good)).toBeNull();
  });

  it('replaces lone surrogates with U+FFFD and keeps pairs', () => {
    expect(toWellFormedText('a\ud800b\udc00c\ud83d\ude00')).toBe('a\ufffdb\ufffdc\u{1f600}');
  });
});
