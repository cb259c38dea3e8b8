/**
 * Issue 27 section 1: one journey on both file stores, the files directory (FILES_DIR, the default) and a
 * bucket of a real S3-compatible server (FILES_STORE; versitygw, tests/support/s3.ts): a PDF and a recording
 * uploaded through the API, parsed by a real worker (the parser copies each file out of the store for its
 * programs), the text and page images in the workspace, the recording's player seeking by HTTP ranges (206
 * with exactly those bytes), the peaks; the files are where the store puts them and go with their documents.
 * Then: an upload whose file cannot be written leaves no document row, and readiness follows the bucket.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { GraphBuilder, setupEngineSuite, stepReaching, stepsOf } from '../support/engine';
import { startTestApi, unique } from '../support/harness';
import { speech, textPdf } from '../support/media';
import { setupS3Bucket, type S3Bucket } from '../support/s3';

jest.setTimeout(240_000);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

interface Upload {
  status: number;
  body: { id?: number; path?: string; message?: string; detail?: string };
}

async function uploadFile(
  baseUrl: string,
  token: string,
  nodeId: number,
  name: string,
  bytes: Buffer,
  type: string,
): Promise<Upload> {
  const form = new FormData();
  form.append('nodeId', String(nodeId));
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${baseUrl}/api/file-upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Upload['body'] };
}

describe.each([
  ['the files directory', false],
  ['an S3 bucket', true],
])('files in %s', (_name, inBucket) => {
  // Before the engine suite: its hooks run after this one's, with the bucket's settings filled in.
  const bucket: S3Bucket | null = inBucket ? setupS3Bucket() : null;
  const filesStore = bucket?.settings ?? null;
  const s = setupEngineSuite(inBucket ? 'files-s3' : 'files-dir', {
    config: { filesStore },
    settings: { filesStore },
  });
  let recording: Buffer;

  beforeAll(async () => {
    recording = await speech('the weather is nice today');
  });

  /** The keys the store holds under a prefix (the directory's files, or the bucket's objects). */
  const storedKeys = async (prefix: string): Promise<string[]> => {
    if (bucket) return bucket.keys(prefix);
    const dir = path.join(s.filesDir, prefix);
    if (!fs.existsSync(dir)) return [];
    return (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      .map((f) => path.posix.join(prefix, f.split(path.sep).join('/')))
      .sort();
  };
  const stored = async (key: string): Promise<Buffer | null> => {
    if (bucket) return (await bucket.keys(key)).includes(key) ? bucket.bytes(key) : null;
    const file = path.join(s.filesDir, key);
    return fs.existsSync(file) ? fs.readFileSync(file) : null;
  };

  const parsedUpload = async (
    g: GraphBuilder,
    hup: number,
    parser: number,
    name: string,
    bytes: Buffer,
    type: string,
  ) => {
    const res = await uploadFile(s.api.baseUrl, s.admin, hup, name, bytes, type);
    expect(res.status).toBe(201);
    const id = res.body.id!;
    const step = await stepReaching(s.knex, id, parser, ['DONE', 'ERROR'], 180_000);
    if (step.status === 'ERROR') throw new Error(`the parse failed: ${step.errorMessage}`);
    return (await s.knex('documents').where('id', id).first('id', 'path')) as { id: number; path: string };
  };

  it('uploads, parses, shows the workspace and seeks the recording by ranges', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    const marker = unique('Invoice');

    // A PDF: its text and its two page images.
    const pdf = textPdf([[`${marker} page one`], ['Second page text']]);
    const doc = await parsedUpload(g, hup, parser, `${marker}.pdf`, pdf, 'application/pdf');
    expect(doc.path).toBe(path.posix.join(sha(pdf).slice(0, 2), sha(pdf).slice(2, 4), sha(pdf)));
    expect((await stored(doc.path))?.equals(pdf)).toBe(true);
    const shown = await s.get(`/api/documents/${doc.id}`, s.admin);
    expect(shown.status).toBe(200);
    expect(shown.body.content.content).toContain(`${marker} page one`);
    expect(shown.body.content.content).toContain('Second page text');
    expect((await s.get(`/api/documents/${doc.id}/images/length`, s.admin)).body).toEqual({ length: 2 });
    const image = await fetch(`${s.api.baseUrl}/api/documents/${doc.id}/images/1`, {
      headers: { Authorization: `Bearer ${s.admin}` },
    });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    const pageKeys = await storedKeys(`pages/${doc.id}/`);
    expect(pageKeys).toHaveLength(2);
    expect((await stored(pageKeys[1]))?.equals(png)).toBe(true);

    // A recording: its transcript, and the player's range requests.
    const wav = await parsedUpload(g, hup, parser, `${marker}.wav`, recording, 'audio/wav');
    const utterances = await s.get(`/api/asr-documents/${wav.id}/utterances`, s.admin);
    expect(utterances.status).toBe(200);
    expect(utterances.body.length).toBeGreaterThan(0);
    const audio = (range?: string) =>
      fetch(`${s.api.baseUrl}/api/asr-documents/${wav.id}/audio`, {
        headers: { Authorization: `Bearer ${s.admin}`, ...(range ? { Range: range } : {}) },
      });
    const size = recording.length;
    const seek = await audio(`bytes=1000-4999`);
    expect(seek.status).toBe(206);
    expect(seek.headers.get('content-range')).toBe(`bytes 1000-4999/${size}`);
    expect(seek.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await seek.arrayBuffer()).equals(recording.subarray(1000, 5000))).toBe(true);
    const tail = await audio('bytes=-100');
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(recording.subarray(size - 100))).toBe(true);
    const open = await audio(`bytes=${size - 10}-`);
    expect(Buffer.from(await open.arrayBuffer()).equals(recording.subarray(size - 10))).toBe(true);
    const whole = await audio();
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(recording)).toBe(true);
    const beyond = await audio(`bytes=${size}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    const peaks = await fetch(`${s.api.baseUrl}/api/asr-documents/${wav.id}/peaks`, {
      headers: { Authorization: `Bearer ${s.admin}` },
    });
    expect(peaks.status).toBe(200);

    // A bucket keeps the files out of the directory; deleting the documents removes them from the store.
    if (bucket) expect(fs.readdirSync(s.filesDir)).toEqual([]);
    for (const d of [doc, wav])
      expect((await s.send('DELETE', `/api/documents/${d.id}`, s.admin)).status).toBe(204);
    expect(await stored(doc.path)).toBeNull();
    expect(await stored(wav.path)).toBeNull();
    expect(await storedKeys(`pages/${doc.id}/`)).toEqual([]);
  });

  it('keeps one set of page images when a document is parsed again', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    const pdf = textPdf([[unique('Once')], ['Twice']]);
    const doc = await parsedUpload(g, hup, parser, `${unique('again')}.pdf`, pdf, 'application/pdf');
    const before = await storedKeys(`pages/${doc.id}/`);
    const step = (await stepsOf(s.knex, doc.id)).find((x) => x.nodeId === parser)!;
    // The parser's own activity run again, as a retry or a rerun does.
    const { createParserActivities } = await import('../../activities/parser');
    await createParserActivities({ knex: s.knex, filesDir: s.filesDir, filesStore }).parseDocument({
      documentId: doc.id,
      stepId: step.id,
      nodeId: parser,
      attempt: 2,
    });
    const after = await storedKeys(`pages/${doc.id}/`);
    expect(after).toHaveLength(2);
    const rows: string[] = await s
      .knex('document_pages')
      .where('document_id', doc.id)
      .orderBy('index')
      .pluck('path');
    expect(after).toEqual([...rows].sort());
    // In a bucket each parse writes objects of its own and the previous ones go; a directory swaps in place.
    if (bucket) expect(after.some((k) => before.includes(k))).toBe(false);
  });

  it('leaves no document row when the file cannot be written', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    // A bucket that does not exist, or a files directory that is a file: every write fails.
    const blocker = path.join(s.filesDir, 'not-a-directory');
    fs.writeFileSync(blocker, 'x');
    const broken = await startTestApi({
      taskQueue: s.taskQueue,
      filesDir: blocker,
      filesStore: filesStore && { ...filesStore, bucket: `missing-${crypto.randomBytes(4).toString('hex')}` },
    });
    try {
      const name = `${unique('unwritten')}.txt`;
      const bytes = Buffer.from(unique('never stored'));
      const res = await uploadFile(broken.baseUrl, s.admin, hup, name, bytes, 'text/plain');
      expect(res.status).toBeGreaterThanOrEqual(500);
      if (bucket) expect(res.status).toBe(503);
      expect(await s.knex('documents').where('filename', name).first()).toBeUndefined();
      expect(await s.knex('documents').where('content_hash', sha(bytes)).first()).toBeUndefined();
      // Its readiness says why it cannot serve.
      const ready = await fetch(`${broken.baseUrl}/management/health/readiness`);
      expect(ready.status).toBe(503);
      expect(
        ((await ready.json()) as { components: Record<string, { status: string }> }).components.filesStore,
      ).toEqual({
        status: 'DOWN',
      });
    } finally {
      await broken.close();
      fs.rmSync(blocker, { force: true });
    }
    const ready = await fetch(`${s.api.baseUrl}/management/health/readiness`);
    expect(
      ((await ready.json()) as { components: Record<string, { status: string }> }).components.filesStore,
    ).toEqual({
      status: 'UP',
    });
  });
});
