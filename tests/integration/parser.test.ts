/**
 * The file parser with the real programs (pdftotext, pdftoppm, tesseract, LibreOffice, sox, pocketsphinx),
 * the real database, and files made in the test. The activity functions are called directly: heartbeats and
 * cancellation tolerate running outside an activity.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { createParserActivities, type ParseDocumentResult } from '../../activities/parser';
import { run } from '../../activities/parser/run';
import { withoutDatabaseDetail } from '../../activities/parser/work';
import { createProjectionActivities } from '../../activities/projection';
import { INTERNAL_STEP_ERROR } from '../../activities/projection/error-message';
import { documentWorkflowId } from '../../workflows/contract';
import { createKnex } from '../../db/connection';
import { insertStoredDocument } from '../support/documents';
import { buildProcess } from '../support/harness';
import { GraphBuilder, eventually, setupEngineSuite, startDocument, stepReaching } from '../support/engine';
import { cp1250, eml, officeFromText, renderPage, scannedPdf, speech, textPdf } from '../support/media';
import { docxBomb, docxOf } from '../support/zip';

/**
 * Waits until no process's arguments contain `needle`: a killed process lingers until the kernel has ended
 * it, which on a busy machine takes longer than any fixed pause.
 */
async function noProcessWith(needle: string): Promise<void> {
  await eventually(`no process with "${needle}"`, async () => {
    const { stdout } = await run(
      { dir: os.tmpdir(), signal: new AbortController().signal, heartbeat: () => {} },
      'ps',
      ['-eo', 'args'],
      { timeoutMs: 10_000 },
    );
    return !stdout.toString().includes(needle);
  });
}

jest.setTimeout(180_000);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('file parser', () => {
  let knex: Knex;
  let filesDir: string;
  let processId: number;
  let parser: ReturnType<typeof createParserActivities>;
  let stepSeq = 0;

  beforeAll(async () => {
    knex = createKnex(process.env.DATABASE_URL!);
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parser-files-'));
    processId = (await buildProcess(knex)).id;
    parser = createParserActivities({ knex, filesDir });
  });

  afterAll(async () => {
    await knex.destroy();
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  const addDocument = (data: Buffer, filename: string, mimeType: string): Promise<number> =>
    insertStoredDocument(knex, filesDir, processId, { data, filename, mimeType });

  const parse = (documentId: number, attempt = 1): Promise<ParseDocumentResult> =>
    parser.parseDocument({ documentId, stepId: ++stepSeq, nodeId: 1, attempt });

  const contentOf = async (documentId: number): Promise<string> =>
    (await knex('document_contents').where({ document_id: documentId }).first())?.content;

  async function pagesOf(documentId: number): Promise<{ index: number; path: string }[]> {
    return knex('document_pages').where({ document_id: documentId }).orderBy('index').select('index', 'path');
  }

  async function transcriptOf(documentId: number) {
    const utterances = await knex('utterances').where({ document_id: documentId }).orderBy('id');
    const tokens = await knex('utterance_tokens')
      .whereIn(
        'utterance_id',
        utterances.map((u) => u.id),
      )
      .orderBy(['utterance_id', 'position']);
    const hints = await knex('token_hints').whereIn(
      'utterance_token_id',
      tokens.map((t) => t.id),
    );
    return { utterances, tokens, hints };
  }

  /** Follows the linked list from the head: the utterances in spoken order. */
  function walk(utterances: { id: number; prev_id: number | null; next_id: number | null }[]) {
    const byId = new Map(utterances.map((u) => [u.id, u]));
    const heads = utterances.filter((u) => u.prev_id === null);
    expect(heads).toHaveLength(1);
    const order: number[] = [];
    for (let u = heads[0]; u; u = byId.get(u.next_id!)!) {
      order.push(u.id);
      if (u.next_id === null) break;
      expect(byId.get(u.next_id)!.prev_id).toBe(u.id);
    }
    expect(order).toHaveLength(utterances.length);
    return order;
  }

  async function expectNonRetryable(p: Promise<unknown>, message: RegExp): Promise<void> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).nonRetryable).toBe(true);
    expect((err as ApplicationFailure).message).toMatch(message);
  }

  it('decodes a Polish text file saved in Windows-1250, and a UTF-8 one', async () => {
    const text = 'Zażółć gęślą jaźń.\r\nŁódź i Kraków są w Polsce, a źrebię je żółte jabłka.\r\n';
    const id = await addDocument(cp1250(text), 'stary.txt', 'text/plain');
    expect(await parse(id)).toMatchObject({ kind: 'text', utterances: 0, pages: 0 });
    expect(await contentOf(id)).toBe(text.replace(/\r\n/g, '\n'));

    const utf8 = await addDocument(Buffer.from('Ćma nad łąką\n'), 'nowy.txt', 'text/plain');
    await parse(utf8);
    expect(await contentOf(utf8)).toBe('Ćma nad łąką\n');
  });

  it('reads a PDF text layer page by page and renders one PNG per page; parsing again leaves one copy', async () => {
    const pdf = textPdf([
      ['Invoice number 12345', 'The quick brown fox jumps over the lazy dog'],
      ['Second page about apples and oranges'],
    ]);
    const id = await addDocument(pdf, 'invoice.pdf', 'application/pdf');
    const first = await parse(id);
    expect(first).toMatchObject({ kind: 'text', pages: 2, utterances: 0 });
    const content = await contentOf(id);
    expect(content).toContain('Invoice number 12345');
    expect(content).toContain('quick brown fox');
    expect(content.indexOf('apples')).toBeGreaterThan(content.indexOf('fox'));

    const pages = await pagesOf(id);
    expect(pages).toEqual([
      { index: 0, path: `pages/${id}/0.png` },
      { index: 1, path: `pages/${id}/1.png` },
    ]);
    for (const p of pages) {
      const png = await fs.readFile(path.join(filesDir, p.path));
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    }

    expect(await parse(id, 2)).toEqual(first);
    expect(await knex('document_contents').where({ document_id: id })).toHaveLength(1);
    expect(await pagesOf(id)).toEqual(pages);
    expect((await fs.readdir(path.join(filesDir, 'pages', String(id)))).sort()).toEqual(['0.png', '1.png']);
    expect((await fs.readdir(path.join(filesDir, 'pages'))).filter((f) => f.startsWith(`${id}.`))).toEqual(
      [],
    );
  });

  it('OCRs a scanned page: a PNG image, a JPEG image and a PDF without a text layer', async () => {
    const source = await officeFromText(
      'Invoice number 4711\nZażółć gęślą jaźń\nPayment due in thirty days\n',
      'pdf',
    );

    const png = await addDocument(await renderPage(source, 'png', 200), 'scan.png', 'image/png');
    expect(await parse(png)).toMatchObject({ kind: 'text', pages: 1 });
    const pngText = await contentOf(png);
    expect(pngText).toMatch(/Invoice number 4711/);
    expect(pngText).toMatch(/Zażółć gęślą jaźń/);
    const [pngPage] = await pagesOf(png);
    expect((await fs.readFile(path.join(filesDir, pngPage.path))).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(
      true,
    );

    const jpeg = await renderPage(source, 'jpeg', 200);
    const jpg = await addDocument(jpeg, 'scan.jpg', 'image/jpeg');
    expect(await parse(jpg)).toMatchObject({ kind: 'text', pages: 1 });
    expect(await contentOf(jpg)).toMatch(/Payment due in thirty days/);
    const [jpgPage] = await pagesOf(jpg);
    expect((await fs.readFile(path.join(filesDir, jpgPage.path))).subarray(0, 8).equals(PNG_SIGNATURE)).toBe(
      true,
    );

    const scanned = await addDocument(scannedPdf(jpeg, 200), 'scan.pdf', 'application/pdf');
    expect(await parse(scanned)).toMatchObject({ kind: 'text', pages: 1 });
    expect(await contentOf(scanned)).toMatch(/Invoice number 4711/);
  });

  it('converts a .docx made by LibreOffice and parses it as a PDF, with page images', async () => {
    const docx = await officeFromText(
      'Quarterly report\nRevenue grew by seven percent\nŻółw wygrał wyścig\n',
      'docx',
    );
    const id = await addDocument(
      docx,
      'report.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(await parse(id)).toMatchObject({ kind: 'text', pages: 1 });
    const content = await contentOf(id);
    expect(content).toContain('Quarterly report');
    expect(content).toContain('Revenue grew by seven percent');
    expect(content).toContain('Żółw wygrał wyścig');
  });

  const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

  it('parses a hand-made docx under the resource limits', async () => {
    const id = await addDocument(docxOf('Hand-made document for the limits'), 'small.docx', DOCX_MIME);
    expect(await parse(id)).toMatchObject({ kind: 'text', pages: 1 });
    expect(await contentOf(id)).toContain('Hand-made document for the limits');
  });

  it('refuses a 100 KB docx that inflates to 100 MB before LibreOffice opens it, without retrying', async () => {
    const bomb = docxBomb(100 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const id = await addDocument(bomb, 'bomb.docx', DOCX_MIME);
    await expectNonRetryable(parse(id), /unpacks to 100 MiB, more than the limit of 64 MiB/);
  });

  it('refuses a docx whose zip directory understates what it inflates to', async () => {
    const liar = docxBomb(80 * 1024 * 1024, { declaredSize: 1000 });
    const id = await addDocument(liar, 'liar.docx', DOCX_MIME);
    await expectNonRetryable(
      parse(id),
      /more than the limit of 64 MiB \(more than its zip directory declares\)/,
    );
  });

  it('stops LibreOffice at the time limit and fails without retrying', async () => {
    const hurried = createParserActivities({ knex, filesDir, office: { timeoutMs: 50 } });
    const id = await addDocument(docxOf(`Too slow ${crypto.randomUUID()}`), 'slow.docx', DOCX_MIME);
    const err = await hurried
      .parseDocument({ documentId: id, stepId: ++stepSeq, nodeId: 1, attempt: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ nonRetryable: true, type: 'ParserTimeout' });
    expect((err as Error).message).toMatch(/did not convert the office document within 0 s and was stopped/);
    // The process group was killed: no LibreOffice of this parse is left (once the kernel has ended them).
    await noProcessWith(`parser-${id}-`);
  });

  it('reads an e-mail: subject, sender, date, body and the attachments by name', async () => {
    const id = await addDocument(
      eml({
        subject: 'Order 8812 confirmation',
        from: 'Anna Nowak <anna@example.test>',
        to: 'orders@example.test',
        body: 'Hello,\nplease confirm the delivery date of order 8812.\nRegards, Anna',
        attachment: {
          filename: 'order-8812.pdf',
          contentType: 'application/pdf',
          content: textPdf([['Order']]),
        },
      }),
      'order.eml',
      'message/rfc822',
    );
    await parse(id);
    const content = await contentOf(id);
    expect(content).toContain('Subject: Order 8812 confirmation');
    expect(content).toContain('From: Anna Nowak <anna@example.test>');
    expect(content).toContain('Date: 2026-03-02T09:15:00.000Z');
    expect(content).toContain('please confirm the delivery date of order 8812.');
    expect(content).toMatch(/Attachments:\n- order-8812\.pdf \(application\/pdf, \d+ bytes\)/);

    const html = await addDocument(
      eml({
        subject: 'Newsletter',
        from: 'news@example.test',
        to: 'me@example.test',
        body: '<html><body><p>Spring <b>sale</b> starts Monday</p><p>Fish &amp; chips</p></body></html>',
        html: true,
      }),
      'news.eml',
      'message/rfc822',
    );
    await parse(html);
    const htmlContent = await contentOf(html);
    expect(htmlContent).toMatch(/Spring sale starts Monday/i);
    expect(htmlContent).toContain('Fish & chips');
    expect(htmlContent).not.toContain('<p>');
  });

  it('imports a JSON transcript as linked utterances with tokens, punctuation attached, and hints', async () => {
    const transcript = {
      utterances: [
        {
          actor: 'SPEAKER1',
          tokens: [
            { value: 'Good', tsStart: 0, tsEnd: 300, confidence: 0.9 },
            { value: 'morning', tsStart: 310, tsEnd: 700, hints: [{ value: 'mourning', confidence: 0.3 }] },
            { value: '.', tsStart: 700, tsEnd: 720 },
          ],
        },
        { actor: 'SPEAKER2', tokens: [{ value: 'Hi', tsStart: 1500, tsEnd: 1800 }] },
      ],
    };
    const id = await addDocument(Buffer.from(JSON.stringify(transcript)), 't.json', 'application/json');
    expect(await parse(id)).toMatchObject({ kind: 'audio', utterances: 2, pages: 0 });
    const { utterances, tokens, hints } = await transcriptOf(id);
    const order = walk(utterances);
    const byId = new Map(utterances.map((u) => [u.id, u]));
    expect(order.map((u) => byId.get(u)!.actor)).toEqual(['SPEAKER1', 'SPEAKER2']);
    const first = tokens.filter((t) => t.utterance_id === order[0]);
    expect(first.map((t) => [t.value, t.ts_start, t.ts_end, t.position])).toEqual([
      ['Good', 0, 300, 0],
      ['morning.', 310, 720, 1],
    ]);
    expect(first[0].confidence).toBeCloseTo(0.9);
    expect(hints.map((h) => [h.value, h.utterance_token_id])).toEqual([['mourning', first[1].id]]);
    expect(await contentOf(id)).toBe('Good morning.\nHi');

    const bad = await addDocument(
      Buffer.from(
        JSON.stringify({
          utterances: [{ actor: 'SPEAKER1', tokens: [{ value: 'x', tsStart: 5, tsEnd: 1 }] }],
        }),
      ),
      'bad.json',
      'application/json',
    );
    await expectNonRetryable(parse(bad), /not a transcript.*utterances\.0\.tokens\.0/);

    for (const [tsStart, tsEnd, problem] of [
      [1e308, 1e308, /tsStart must be a number of milliseconds from 0 to 172800000 \(48 hours\)/],
      [0, 48 * 3600 * 1000 + 1, /tsEnd must be a number of milliseconds/],
      [-1, 5, /tsStart must be/],
    ] as const) {
      const huge = await addDocument(
        Buffer.from(
          JSON.stringify({ utterances: [{ actor: 'S', tokens: [{ value: 'x', tsStart, tsEnd }] }] }),
        ),
        'huge.json',
        'application/json',
      );
      await expectNonRetryable(parse(huge), problem);
    }
  });

  it('fails with a message free of SQL when the database refuses a value, and a step never shows SQL', async () => {
    const refused = await knex('utterance_tokens')
      .insert({ utterance_id: 1, value: 'x', position: 0, ts_start: 1e308 })
      .catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/insert into/);
    const mapped = withoutDatabaseDetail(refused, 'test');
    expect(mapped).toBeInstanceOf(ApplicationFailure);
    expect(mapped).toMatchObject({ nonRetryable: true });
    expect((mapped as Error).message).not.toMatch(/insert|utterance_tokens|out of range/);

    const doc = await addDocument(Buffer.from(crypto.randomUUID()), 'e.txt', 'text/plain');
    const [node] = await knex('nodes')
      .insert({ process_id: processId, name: `parser-${doc}`, activity_type: 'FILE_PARSER', automatic: true })
      .returning('id');
    const [step] = await knex('steps')
      .insert({ document_id: doc, node_id: node.id, order: 1, status: 'PROCESSING', master: true })
      .returning('id');
    const projection = createProjectionActivities({ knex });
    const stored = async (errorMessage: string) => {
      await projection.project({
        documentId: doc,
        documentStatus: 'WAITING',
        changes: [
          { id: step.id, status: 'ERROR', master: true, rejected: false, blockedBy: null, errorMessage },
        ],
      });
      return (await knex('steps').where('id', step.id).first('error_message')).error_message;
    };
    expect(await stored((refused as Error).message)).toBe(INTERNAL_STEP_ERROR);
    expect(
      await stored('TypeError: x is undefined\n    at parse (/app/activities/parser/index.ts:1:1)'),
    ).toBe(INTERNAL_STEP_ERROR);
    expect(await stored('The file is not an image it claims to be.')).toBe(
      'The file is not an image it claims to be.',
    );
  });

  it('recognizes speech synthesized by espeak-ng: utterances split on the pause, increasing timestamps, most words', async () => {
    const first = 'the weather is nice today';
    const second = 'and we are going to the park';
    const wav = await speech(`<speak>${first} <break time="1500ms"/> ${second}</speak>`);
    const id = await addDocument(wav, 'speech.wav', 'audio/wav');
    const result = await parse(id);
    expect(result.kind).toBe('audio');
    const { utterances, tokens, hints } = await transcriptOf(id);
    expect(utterances.length).toBe(result.utterances);
    expect(utterances.length).toBeGreaterThanOrEqual(2);
    expect(utterances.every((u) => u.actor === 'SPEAKER1')).toBe(true);
    const order = walk(utterances);

    const spoken = order.flatMap((u) => tokens.filter((t) => t.utterance_id === u));
    let previous = -1;
    for (const t of spoken) {
      expect(t.ts_start).toBeGreaterThanOrEqual(previous);
      expect(t.ts_end).toBeGreaterThanOrEqual(t.ts_start);
      expect(t.confidence).toBeGreaterThanOrEqual(0);
      expect(t.confidence).toBeLessThanOrEqual(1);
      previous = t.ts_start;
    }
    const heard = new Set(spoken.map((t) => t.value.toLowerCase()));
    const expected = `${first} ${second}`.split(' ');
    const recognized = expected.filter((w) => heard.has(w));
    expect(recognized.length / expected.length).toBeGreaterThan(0.6);
    // The pause of 1.5 s separates the two sentences.
    const firstUtterance = tokens.filter((t) => t.utterance_id === order[0]).map((t) => t.value);
    expect(firstUtterance).not.toContain('park');
    // Hints: the alternatives of the lattice, other words than the token, with posteriors.
    expect(hints.length).toBeGreaterThan(0);
    const tokenById = new Map(spoken.map((t) => [t.id, t]));
    for (const h of hints) {
      expect(tokenById.get(h.utterance_token_id)!.value).not.toBe(h.value);
      expect(h.confidence).toBeGreaterThan(0);
      expect(h.confidence).toBeLessThanOrEqual(1);
    }

    // Recognizing again replaces the transcript: one copy, same shape.
    await parse(id, 2);
    const again = await transcriptOf(id);
    expect(again.utterances).toHaveLength(utterances.length);
    expect(again.tokens).toHaveLength(tokens.length);
    expect(again.hints).toHaveLength(hints.length);
    expect(again.utterances.map((u) => u.id)).not.toEqual(utterances.map((u) => u.id));
    expect(
      await knex('utterance_tokens').whereIn(
        'id',
        tokens.map((t) => t.id),
      ),
    ).toEqual([]);
  });

  it('sends the audio to a Whisper-compatible endpoint when configured', async () => {
    const requests: { url?: string; auth?: string; body: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({
          url: req.url,
          auth: req.headers.authorization,
          body: Buffer.concat(chunks).toString('latin1'),
        });
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            text: 'Hello world. Again',
            words: [
              { word: ' Hello', start: 0.1, end: 0.4 },
              { word: 'world', start: 0.45, end: 0.8, probability: 0.7 },
              { word: '.', start: 0.8, end: 0.82 },
              { word: 'Again', start: 2.0, end: 2.3 },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const whisper = createParserActivities({
        knex,
        filesDir,
        asr: {
          engine: 'whisper',
          whisperUrl: `http://127.0.0.1:${port}/`,
          whisperApiKey: 'k-123',
          whisperModel: 'tiny',
        },
      });
      const id = await addDocument(await speech('hello world'), 'hello.wav', 'audio/x-wav');
      const result = await whisper.parseDocument({
        documentId: id,
        stepId: ++stepSeq,
        nodeId: 1,
        attempt: 1,
      });
      expect(result).toMatchObject({ kind: 'audio', utterances: 2 });
      expect(requests).toHaveLength(1);
      expect(requests[0].url).toBe('/v1/audio/transcriptions');
      expect(requests[0].auth).toBe('Bearer k-123');
      for (const field of ['model', 'response_format', 'timestamp_granularities[]'])
        expect(requests[0].body).toContain(`name="${field}"`);
      expect(requests[0].body).toContain('verbose_json');
      expect(requests[0].body).toContain('RIFF');
      const { utterances, tokens } = await transcriptOf(id);
      const order = walk(utterances);
      expect(order.map((u) => tokens.filter((t) => t.utterance_id === u).map((t) => t.value))).toEqual([
        ['Hello', 'world.'],
        ['Again'],
      ]);
      expect(tokens.find((t) => t.value === 'world.')).toMatchObject({
        ts_start: 450,
        ts_end: 820,
        confidence: 0.7,
      });
    } finally {
      server.close();
    }
  });

  it('fails non-retryably on a damaged PDF and keeps the earlier result', async () => {
    const good = Buffer.from('first text\n');
    const id = await addDocument(good, 'x.txt', 'text/plain');
    await parse(id);
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(2000)]);
    const hash = crypto.createHash('sha256').update(corrupt).digest('hex');
    const rel = path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);
    await fs.mkdir(path.join(filesDir, path.dirname(rel)), { recursive: true });
    await fs.writeFile(path.join(filesDir, rel), corrupt);
    await knex('documents')
      .where({ id })
      .update({ path: rel, mime_type: 'application/pdf', filename: 'x.pdf' });
    await expectNonRetryable(parse(id), /damaged/);
    expect(await contentOf(id)).toBe('first text\n');
  });

  it('fails non-retryably on unsupported, mislabelled, missing and binary input', async () => {
    const zip = await addDocument(Buffer.from('PK\x03\x04 not really'), 'a.zip', 'application/zip');
    await expectNonRetryable(parse(zip), /cannot be parsed/);
    const fakeImage = await addDocument(Buffer.from('/etc/passwd\n'), 'a.png', 'image/png');
    await expectNonRetryable(parse(fakeImage), /not an image/);
    const binary = await addDocument(Buffer.from([0x41, 0x00, 0x42, 0x00, 0x01]), 'b.txt', 'text/plain');
    await expectNonRetryable(parse(binary), /not plain text/);
    const notAudio = await addDocument(Buffer.from('RIFF....WAVEjunk'), 'c.wav', 'audio/wav');
    await expectNonRetryable(parse(notAudio), /audio file cannot be read/);
    const gone = await addDocument(Buffer.from(crypto.randomUUID()), 'gone.txt', 'text/plain');
    const { path: rel } = await knex('documents').where({ id: gone }).first('path');
    await fs.rm(path.join(filesDir, rel));
    await expectNonRetryable(parse(gone), /missing/);
    await expectNonRetryable(parse(987654321), /no longer exists/);
  });

  it('kills a running program and its children on cancellation and on timeout', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'run-'));
    try {
      const marker = `${30 + Math.random()}`.slice(0, 10);
      const controller = new AbortController();
      const work = { dir, signal: controller.signal, heartbeat: () => {} };
      const running = run(work, 'sh', ['-c', `sleep ${marker}; echo done`], { timeoutMs: 60_000 });
      setTimeout(() => controller.abort(new Error('cancelled by test')), 300);
      // Rejected with the cancellation (a sleep left running would end with "done" after 30 s).
      await expect(running).rejects.toThrow('cancelled by test');
      await noProcessWith(`sleep ${marker}`);

      await expect(
        run({ dir, signal: new AbortController().signal, heartbeat: () => {} }, 'sleep', ['5'], {
          timeoutMs: 300,
        }),
      ).rejects.toThrow(/did not finish within/);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('file parser in the document engine', () => {
  const s = setupEngineSuite('parser-limits');

  it('ends the step of a docx bomb in ERROR with the message after one attempt', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    const doc = await startDocument(s, g, hup, {
      name: 'bomb.docx',
      content: docxBomb(100 * 1024 * 1024),
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const failed = await stepReaching(s.knex, doc.id, parser, ['ERROR'], 60_000);
    expect(failed.errorMessage).toMatch(
      /^The office document unpacks to 100 MiB, more than the limit of 64 MiB/,
    );
    const { events } = await s.client.workflow.getHandle(documentWorkflowId(doc.id)).fetchHistory();
    const parses = new Set(
      (events ?? [])
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'parseDocument')
        .map((e) => String(e.eventId)),
    );
    const attempts = (events ?? [])
      .filter((e) => parses.has(String(e.activityTaskStartedEventAttributes?.scheduledEventId)))
      .map((e) => e.activityTaskStartedEventAttributes!.attempt);
    expect(attempts).toEqual([1]);
  });
});
