/**
 * Waveform peaks of speech documents (issue 14 section 1): the file parser computes them from a real
 * recording (espeak-ng speech after a second of digital silence, streamed through sox), stores them once
 * per document, and GET api/asr-documents/{id}/peaks serves them to readers of the document; a document
 * parsed before peaks existed gets them computed on its first request. The peaks are checked against the
 * recording's own samples, decoded here by sox.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createParserActivities } from '../../activities/parser';
import { decodePeaks, windowCount, type AudioPeaks } from '../../domain/audio-peaks';
import { insertStoredDocument } from '../support/documents';
import { buildProcess, buildUser, setupSuite } from '../support/harness';
import { speech } from '../support/media';

const exec = promisify(execFile);
jest.setTimeout(180_000);

describe('waveform peaks', () => {
  const filesDir = `${os.tmpdir()}/wb-peaks-${crypto.randomUUID()}`;
  const suite = setupSuite({ config: { filesDir } });
  let processId: number;
  let reader: string;
  let stranger: string;
  let stepSeq = 0;
  let recording: Buffer;

  beforeAll(async () => {
    await fs.mkdir(filesDir, { recursive: true });
    processId = (await buildProcess(suite.knex)).id;
    reader = await suite.signIn(
      await buildUser(suite.knex, {
        authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
      }),
    );
    stranger = await suite.signIn(await buildUser(suite.knex));
    // One second of digital silence, then speech.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'peaks-'));
    try {
      await fs.writeFile(path.join(dir, 'speech.wav'), await speech('the weather is nice today'));
      await exec('sox', [path.join(dir, 'speech.wav'), path.join(dir, 'padded.wav'), 'pad', '1', '0']);
      recording = await fs.readFile(path.join(dir, 'padded.wav'));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  const addDocument = (data: Buffer, filename: string, mimeType: string): Promise<number> =>
    insertStoredDocument(suite.knex, filesDir, processId, { data, filename, mimeType });

  const getPeaks = (id: number, token = reader) =>
    fetch(`${suite.api.baseUrl}/api/asr-documents/${id}/peaks`, {
      headers: { Authorization: `Bearer ${token}` },
    });

  async function peaksOf(id: number): Promise<AudioPeaks> {
    const res = await getPeaks(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    return decodePeaks(new Uint8Array(await res.arrayBuffer()));
  }

  /** The recording's samples as sox decodes them (mono, 16-bit). */
  async function samplesOf(data: Buffer): Promise<{ rate: number; samples: Int16Array }> {
    const file = path.join(os.tmpdir(), `peaks-${crypto.randomUUID()}.wav`);
    await fs.writeFile(file, data);
    try {
      const rate = Number((await exec('sox', ['--i', '-r', file])).stdout.trim());
      const { stdout } = await exec(
        'sox',
        [file, '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-c', '1', '-L', '-'],
        { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      );
      const bytes = Buffer.from(stdout);
      return { rate, samples: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) };
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  it('computes the peaks of a parsed recording once, matching its samples, for readers only', async () => {
    const id = await addDocument(recording, 'weather.wav', 'audio/wav');
    const parser = createParserActivities({ knex: suite.knex, filesDir });
    await parser.parseDocument({ documentId: id, stepId: ++stepSeq, nodeId: 1, attempt: 1 });
    const rows = await suite.knex('document_peaks').where('document_id', id);
    expect(rows).toHaveLength(1);

    const peaks = await peaksOf(id);
    const { rate, samples } = await samplesOf(recording);
    expect(peaks.sampleRate).toBe(rate);
    // 10 ms windows, the last one partial.
    expect(peaks.samplesPerWindow).toBe(Math.round(rate / 100));
    expect(windowCount(peaks)).toBe(Math.ceil(samples.length / peaks.samplesPerWindow));
    expect(rows[0].windows).toBe(windowCount(peaks));

    // Each window's minimum and maximum are the samples' (on the 8-bit scale, within a step of rounding).
    let loudest = 0;
    for (let w = 0; w < windowCount(peaks); w++) {
      const slice = samples.subarray(w * peaks.samplesPerWindow, (w + 1) * peaks.samplesPerWindow);
      const min = Math.min(...slice);
      const max = Math.max(...slice);
      expect(Math.abs(peaks.data[2 * w] - (min * 127) / 32768)).toBeLessThanOrEqual(1);
      expect(Math.abs(peaks.data[2 * w + 1] - (max * 127) / 32768)).toBeLessThanOrEqual(1);
      loudest = Math.max(loudest, peaks.data[2 * w + 1], -peaks.data[2 * w]);
    }
    // The second of silence is flat; the speech reaches a large part of full scale.
    const silence = Array.from(peaks.data.subarray(0, 2 * 95));
    expect(silence.every((v) => v === 0)).toBe(true);
    expect(loudest).toBeGreaterThan(40);

    // Parsing again replaces them: still one row.
    await parser.parseDocument({ documentId: id, stepId: ++stepSeq, nodeId: 1, attempt: 2 });
    expect(await suite.knex('document_peaks').where('document_id', id)).toHaveLength(1);

    expect((await getPeaks(id, stranger)).status).toBe(403);
    const anonymous = await fetch(`${suite.api.baseUrl}/api/asr-documents/${id}/peaks`);
    expect(anonymous.status).toBe(401);
    // The query token is for media elements only: not accepted here.
    const queryToken = await fetch(
      `${suite.api.baseUrl}/api/asr-documents/${id}/peaks?access_token=${encodeURIComponent(reader)}`,
    );
    expect(queryToken.status).toBe(401);
  });

  it('computes the peaks of a document parsed before on its first request, and stores them', async () => {
    const id = await addDocument(recording, 'older.wav', 'audio/wav');
    expect(await suite.knex('document_peaks').where('document_id', id)).toHaveLength(0);
    const [first, second] = await Promise.all([peaksOf(id), peaksOf(id)]);
    expect(Array.from(second.data)).toEqual(Array.from(first.data));
    const { samples } = await samplesOf(recording);
    expect(windowCount(first)).toBe(Math.ceil(samples.length / first.samplesPerWindow));
    expect(await suite.knex('document_peaks').where('document_id', id)).toHaveLength(1);
    // Served from what was stored from now on: the recording itself is no longer read.
    const stored = await suite.knex('documents').where('id', id).first('path');
    await fs.rename(path.join(filesDir, stored.path), path.join(filesDir, `${stored.path}.away`));
    expect(Array.from((await peaksOf(id)).data)).toEqual(Array.from(first.data));
    await fs.rename(path.join(filesDir, `${stored.path}.away`), path.join(filesDir, stored.path));

    // Removed with the document.
    await suite.knex('documents').where('id', id).delete();
    expect(await suite.knex('document_peaks').where('document_id', id)).toHaveLength(0);
  });

  it('folds the peaks to at most ?maxWindows windows, for readers only, and refuses a bad count', async () => {
    const id = await addDocument(recording, 'folded.wav', 'audio/wav');
    const full = await peaksOf(id);
    const n = windowCount(full);
    const folded = async (query: string, token = reader) =>
      fetch(`${suite.api.baseUrl}/api/asr-documents/${id}/peaks?maxWindows=${query}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
    for (const max of [1, 7, 50, Math.floor(n / 3)]) {
      const res = await folded(String(max));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      const p = decodePeaks(new Uint8Array(await res.arrayBuffer()));
      // The reference: every k consecutive windows of the full peaks as one, the rest in the last.
      const k = Math.ceil(n / max);
      const expected: number[] = [];
      for (let from = 0; from < n; from += k) {
        const mins: number[] = [];
        const maxs: number[] = [];
        for (let w = from; w < Math.min(n, from + k); w++) {
          mins.push(full.data[2 * w]);
          maxs.push(full.data[2 * w + 1]);
        }
        expected.push(Math.min(...mins), Math.max(...maxs));
      }
      expect({ max, windows: windowCount(p) }).toEqual({ max, windows: Math.ceil(n / k) });
      expect(windowCount(p)).toBeLessThanOrEqual(max);
      expect(p.sampleRate).toBe(full.sampleRate);
      expect(p.samplesPerWindow).toBe(full.samplesPerWindow * k);
      expect(Array.from(p.data)).toEqual(expected);
    }
    // As many windows as there are, or more: the peaks as stored.
    for (const max of [n, 2_000_000]) {
      const res = await folded(String(max));
      expect(Array.from(decodePeaks(new Uint8Array(await res.arrayBuffer())).data)).toEqual(
        Array.from(full.data),
      );
    }
    for (const bad of ['0', '-1', '1.5', 'abc', '', '2000001', '99999999999']) {
      const res = await folded(bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(await res.json()).toMatchObject({ message: 'error.http.400' });
    }
    expect((await folded('50', stranger)).status).toBe(403);
    expect((await fetch(`${suite.api.baseUrl}/api/asr-documents/${id}/peaks?maxWindows=50`)).status).toBe(
      401,
    );
  });

  it('has no peaks for a JSON transcript, a text, an unreadable recording or a missing file', async () => {
    const json = await addDocument(
      Buffer.from(JSON.stringify({ utterances: [{ actor: 'SPEAKER1', tokens: [] }] })),
      't.json',
      'application/json',
    );
    const text = await addDocument(Buffer.from(`text ${crypto.randomUUID()}`), 't.txt', 'text/plain');
    const broken = await addDocument(
      Buffer.concat([Buffer.from('RIFF'), crypto.randomBytes(200)]),
      'broken.wav',
      'audio/wav',
    );
    const missing = await addDocument(Buffer.from(crypto.randomBytes(64)), 'gone.wav', 'audio/wav');
    const doc = await suite.knex('documents').where('id', missing).first('path');
    await fs.rm(path.join(filesDir, doc.path));
    for (const id of [json, text, broken, missing]) {
      const res = await getPeaks(id);
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      await res.arrayBuffer();
    }
    expect(await suite.knex('document_peaks').whereIn('document_id', [json, text, broken, missing])).toEqual(
      [],
    );
  });
});
