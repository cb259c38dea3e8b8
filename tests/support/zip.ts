/**
 * Zip archives made in a test: stored or deflated members, and a directory that may lie about the sizes
 * (what a decompression bomb does). Enough of APPNOTE.TXT for office files; no ZIP64.
 */
import zlib from 'node:zlib';

export interface ZipMember {
  name: string;
  data: Buffer;
  /** Deflate the member (default true). */
  deflate?: boolean;
  /** The uncompressed size the headers declare instead of the real one. */
  declaredSize?: number;
}

export function zipOf(members: ZipMember[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name, 'utf8');
    const deflate = m.deflate ?? true;
    const body = deflate ? zlib.deflateRawSync(m.data, { level: 9 }) : m.data;
    const crc = zlib.crc32(m.data);
    const size = m.declaredSize ?? m.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(deflate ? 8 : 0, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(entry, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A Word document whose one paragraph is `text` (well-formed OOXML, as small as Word accepts). */
export function docxOf(text: string | Buffer, opts: { declaredSize?: number } = {}): Buffer {
  const head = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>`,
  );
  const tail = Buffer.from('</w:t></w:r></w:p></w:body></w:document>');
  const document = Buffer.concat([head, Buffer.isBuffer(text) ? text : Buffer.from(text), tail]);
  return zipOf([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    },
    { name: 'word/document.xml', data: document, declaredSize: opts.declaredSize },
  ]);
}

/** A docx whose document.xml inflates to about `bytes` (a run of "a " that deflates about 1000:1). */
export const docxBomb = (bytes: number, opts: { declaredSize?: number } = {}): Buffer =>
  docxOf(Buffer.alloc(bytes, 'a '), opts);
