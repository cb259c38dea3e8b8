/**
 * Issue 4: the worker process is killed (SIGKILL) while a long parse runs; a new worker finishes the
 * document, and the step's result is written once.
 *
 * The worker is a real OS process (`tsx workflows/worker.ts`) on this suite's own task queue; no worker runs
 * in the test process. Two documents go through HUP -> FILE_PARSER (autoStepStatus DONE) -> CLF at once: a
 * four-page scanned PDF (every page OCR'd by tesseract) and a spoken paragraph (sox + pocketsphinx), each
 * parse several seconds long. While tesseract and pocketsphinx both run, the worker's process group is
 * frozen and killed with SIGKILL, and the programs it started (in process groups of their own) with it, as
 * when the machine goes down. Nothing is written then; the parser activity's heartbeat timeout (20 s,
 * workflows/document.ts) makes the server retry it on a second worker process, which finishes both
 * documents. Afterwards each document has its result once: one content row, its pages once, its transcript
 * once (as many utterances and tokens as a parse of the same file in this process), and the parse is one
 * activity that completed once, on the second worker, at attempt 2 or later after a heartbeat timeout.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createParserActivities } from '../../activities/parser';
import { documentWorkflowId } from '../../workflows/contract';
import {
  GraphBuilder,
  allProcesses,
  documentStatus,
  eventually,
  processGroup,
  processTree,
  setupEngineSuite,
  spawnWorkerProcess,
  startDocument,
  stepReaching,
  stepsOf,
  type ProcessInfo,
  type WorkerProcess,
} from '../support/engine';
import { renderPage, scannedPdf, speech, tempDir, textPdf } from '../support/media';

jest.setTimeout(150_000);

const exec = promisify(execFile);

const PAGE_WORDS = ['FIRST', 'SECOND', 'THIRD', 'FOURTH'];
const SENTENCE =
  'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore. ' +
  'Peter Piper picked a peck of pickled peppers.';

/** A PDF of scanned pages only (JPEG images, no text layer): every page needs OCR. */
async function scannedPages(words: string[]): Promise<Buffer> {
  const dir = await tempDir('scans-');
  try {
    const files: string[] = [];
    for (const [i, word] of words.entries()) {
      const lines = Array.from(
        { length: 12 },
        (_, l) => `${word} page, line ${l + 1}: the quick brown fox jumps over the lazy dog.`,
      );
      const file = path.join(dir, `page-${i}.pdf`);
      fs.writeFileSync(file, scannedPdf(await renderPage(textPdf([lines]), 'jpeg')));
      files.push(file);
    }
    const out = path.join(dir, 'scans.pdf');
    await exec('pdfunite', [...files, out]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface ParseActivity {
  scheduled: number;
  /** One per attempt that ended (completed or failed); a heartbeat timeout leaves none. */
  started: { attempt: number; identity: string; lastFailure: string | null }[];
  completed: { identity: string }[];
  failed: number;
}

describe('document engine: the worker is killed during a parse', () => {
  const s = setupEngineSuite('sigkill', { worker: false });
  const workers: WorkerProcess[] = [];
  /** Programs the killed worker had started (tesseract, pocketsphinx...): killed with it. */
  const programs: number[] = [];

  const killPrograms = () => {
    for (const pid of programs.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended already
      }
    }
  };

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    killPrograms();
  });

  const startWorker = () => {
    const w = spawnWorkerProcess({ taskQueue: s.taskQueue, filesDir: s.filesDir });
    workers.push(w);
    return w;
  };

  async function parseActivity(documentId: number): Promise<ParseActivity> {
    const history = await s.client.workflow.getHandle(documentWorkflowId(documentId)).fetchHistory();
    const events = history.events ?? [];
    const ids = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'parseDocument')
        .map((e) => Number(e.eventId)),
    );
    const of = (a: { scheduledEventId?: unknown } | null | undefined) =>
      !!a && ids.has(Number(a.scheduledEventId));
    return {
      scheduled: ids.size,
      started: events
        .map((e) => e.activityTaskStartedEventAttributes)
        .filter(of)
        .map((a) => ({
          attempt: a!.attempt ?? 0,
          identity: a!.identity ?? '',
          lastFailure: a!.lastFailure?.message ?? null,
        })),
      completed: events
        .map((e) => e.activityTaskCompletedEventAttributes)
        .filter(of)
        .map((a) => ({ identity: a!.identity ?? '' })),
      failed: events.filter(
        (e) => of(e.activityTaskFailedEventAttributes) || of(e.activityTaskTimedOutEventAttributes),
      ).length,
    };
  }

  const counts = async (documentId: number) => {
    const count = async (q: ReturnType<typeof s.knex>) => Number((await q.count({ n: '*' }).first())!.n);
    const utterances = s.knex('utterances').where({ document_id: documentId });
    return {
      contents: await count(s.knex('document_contents').where({ document_id: documentId })),
      pages: await count(s.knex('document_pages').where({ document_id: documentId })),
      utterances: await count(utterances.clone()),
      tokens: await count(
        s.knex('utterance_tokens').whereIn('utterance_id', utterances.clone().select('id')),
      ),
    };
  };

  /** The same file as another document, parsed here (no workflow): what one parse writes. */
  async function referenceParse(processId: number, key: string, mimeType: string, size: number) {
    const [row] = await s
      .knex('documents')
      .insert({
        process_id: processId,
        filename: `reference${mimeType === 'application/pdf' ? '.pdf' : '.wav'}`,
        path: key,
        content_hash: path.basename(key),
        mime_type: mimeType,
        size,
        document_type: mimeType.startsWith('audio/') ? 'AUDIOFILE' : 'TEXTFILE',
      })
      .returning('id');
    const parser = createParserActivities({ knex: s.knex, filesDir: s.filesDir });
    await parser.parseDocument({ documentId: row.id, stepId: 0, nodeId: 0, attempt: 1 });
    const content = (await s.knex('document_contents').where({ document_id: row.id }).first()).content;
    return { id: row.id as number, content: content as string, ...(await counts(row.id)) };
  }

  it('lets a new worker finish the parse and writes the result once', async () => {
    const [pdf, wav] = await Promise.all([scannedPages(PAGE_WORDS), speech(SENTENCE)]);
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const clf = await g.node('CLF');
    await g.edge(hup, parser);
    await g.edge(parser, clf);

    const first = startWorker();
    await first.ready;
    const pdfDoc = await startDocument(s, g, hup, {
      name: 'scans.pdf',
      content: pdf,
      mimeType: 'application/pdf',
    });
    const wavDoc = await startDocument(s, g, hup, {
      name: 'speech.wav',
      content: wav,
      mimeType: 'audio/wav',
      documentType: 'AUDIOFILE',
    });
    const docs = [pdfDoc, wavDoc];
    for (const doc of docs) await stepReaching(s.knex, doc.id, parser, ['PROCESSING']);

    // Both parses are running their programs under the first worker: kill it, and them, as a crash would.
    const running = (tree: ProcessInfo[]) => {
      const live = tree.filter((p) => p.state !== 'Z');
      return live.some((p) => p.comm === 'tesseract') && live.some((p) => p.comm.startsWith('pocketsphinx'));
    };
    // Freeze the worker's group while both run (frozen, it starts nothing more); note its programs.
    const tree = await eventually('tesseract and pocketsphinx under the first worker', async () => {
      process.kill(-first.pid, 'SIGSTOP');
      const now = processTree(first.pid);
      if (running(now)) return now;
      process.kill(-first.pid, 'SIGCONT');
      return false;
    });
    programs.push(...tree.filter((p) => p.pgid !== first.pid).map((p) => p.pid));
    await first.kill('SIGKILL');
    killPrograms();
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await eventually('no process of the first worker left', async () => processGroup(first.pid).length === 0);
    expect(programs.every((pid) => allProcesses().every((p) => p.pid !== pid || p.state === 'Z'))).toBe(true);

    // Nothing was written by the killed parse; the steps are still PROCESSING.
    for (const doc of docs) {
      expect((await stepsOf(s.knex, doc.id)).map((x) => x.status)).toEqual(['ACCEPTED', 'PROCESSING']);
      expect(await counts(doc.id)).toEqual({ contents: 0, pages: 0, utterances: 0, tokens: 0 });
    }

    // A new worker; meanwhile, what one parse of each file writes (parsed in this process).
    const second = startWorker();
    const [pdfRef, wavRef] = await Promise.all([
      referenceParse(g.processId, pdfDoc.path, 'application/pdf', pdf.length),
      referenceParse(g.processId, wavDoc.path, 'audio/wav', wav.length),
    ]);
    expect(pdfRef).toMatchObject({ contents: 1, pages: PAGE_WORDS.length, utterances: 0 });
    expect(wavRef).toMatchObject({ contents: 1, pages: 0 });
    expect(wavRef.utterances).toBeGreaterThan(0);
    expect(wavRef.tokens).toBeGreaterThan(5);
    await second.ready;

    // The second worker finishes both parses; the flow moves on to CLF.
    for (const doc of docs) {
      await stepReaching(s.knex, doc.id, clf, ['WAITING'], 90_000);
      const steps = await stepsOf(s.knex, doc.id);
      expect(steps.map((x) => [x.nodeId, x.status, x.errorMessage])).toEqual([
        [hup, 'ACCEPTED', null],
        [parser, 'DONE', null],
        [clf, 'WAITING', null],
      ]);
      expect(await documentStatus(s.knex, doc.id)).toBe('WAITING');
    }

    // Written once: one content row, the pages once, the transcript once (as one parse writes them).
    expect(await counts(pdfDoc.id)).toEqual({
      contents: 1,
      pages: PAGE_WORDS.length,
      utterances: 0,
      tokens: 0,
    });
    const pdfContent = (await s.knex('document_contents').where({ document_id: pdfDoc.id }).first()).content;
    for (const word of PAGE_WORDS) expect(pdfContent).toContain(word);
    expect(pdfContent).toBe(pdfRef.content);
    const pages = await s.knex('document_pages').where({ document_id: pdfDoc.id }).orderBy('index');
    expect(pages.map((p) => p.index)).toEqual(PAGE_WORDS.map((_, i) => i));
    expect(fs.readdirSync(path.join(s.filesDir, 'pages', String(pdfDoc.id))).sort()).toEqual(
      PAGE_WORDS.map((_, i) => `${i}.png`).sort(),
    );

    expect(await counts(wavDoc.id)).toEqual({
      contents: 1,
      pages: 0,
      utterances: wavRef.utterances,
      tokens: wavRef.tokens,
    });
    const wavContent = (await s.knex('document_contents').where({ document_id: wavDoc.id }).first()).content;
    expect(wavContent).toBe(wavRef.content);
    // One linked list of utterances: one head, one tail, every link once.
    const utterances = await s.knex('utterances').where({ document_id: wavDoc.id });
    expect(utterances.filter((u) => u.prev_id === null)).toHaveLength(1);
    expect(utterances.filter((u) => u.next_id === null)).toHaveLength(1);
    expect(new Set(utterances.map((u) => u.next_id)).size).toBe(utterances.length);

    // One parse activity per document, completed once, on the second worker, retried after a heartbeat
    // timeout of the killed attempt.
    const secondPids = new Set(processTree(second.pid).map((p) => p.pid));
    for (const doc of docs) {
      const activity = await parseActivity(doc.id);
      expect(activity).toMatchObject({ scheduled: 1, failed: 0 });
      expect(activity.completed).toHaveLength(1);
      expect(activity.started).toHaveLength(1);
      const [started] = activity.started;
      expect(started.attempt).toBeGreaterThanOrEqual(2);
      expect(started.lastFailure).toMatch(/heartbeat/i);
      const pid = Number(activity.completed[0].identity.split('@')[0]);
      expect(secondPids.has(pid)).toBe(true);
      expect(started.identity).toBe(activity.completed[0].identity);
    }
  });
});
