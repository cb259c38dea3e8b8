/**
 * The file parser of FILE_PARSER nodes: reads a document's stored file (documents.path in the file store,
 * server/files.ts, copied into a work folder: the programs need a path; type from documents.mime_type) and writes its text (txt, PDF, images, office files, e-mail) or its transcript
 * (wav speech recognition with the recording's waveform peaks, JSON transcripts) and its page images, replacing any earlier result in one
 * transaction (store.ts). Idempotent: a retry (same step, next attempt) or a rerun (another step) leaves one
 * copy of the results. Bad input fails with a non-retryable ApplicationFailure whose message the step shows;
 * office files are checked and converted within limits (office.ts); a database error reaches the step
 * without its SQL (work.ts withoutDatabaseDetail).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { documentById } from '../../db/queries/documents';
import {
  FileMissing,
  KeyOutsideStore,
  openFileStore,
  type FileStore,
  type FilesLocation,
} from '../../server/files';
import { transcriptText, type TranscriptUtterance } from '../../domain/transcript';
import { recordingPeaks, transcribe, type AsrSettings } from './asr';
import { detectKind, type Detected } from './detect';
import { parseEmail } from './email';
import { parseJsonTranscript } from './json-transcript';
import { ocrImage, ocrImageWithPdf } from './ocr';
import { officeLimitsFromEnv, parseOffice, type OfficeLimits } from './office';
import { extractPageImages } from './pages';
import { parsePdf } from './pdf';
import { storeResults, type ParseOutput } from './store';
import { parseText } from './text';
import { badInput, ParserFailure, withoutDatabaseDetail, workFor, type Work } from './work';
import { stepError } from '../../domain/step-errors';

export type { AsrSettings } from './asr';

export interface ParserDeps extends FilesLocation {
  knex: Knex;
  /** Speech recognition engine; pocketsphinx when absent. */
  asr?: AsrSettings;
  /** Limits of office conversions; the environment's (OFFICE_*) or the defaults where absent. */
  office?: Partial<OfficeLimits>;
}

export interface ParseDocumentInput {
  documentId: number;
  stepId: number;
  nodeId: number;
  attempt: number;
}

export interface ParseDocumentResult {
  kind: 'text' | 'audio';
  /** Characters of the content (for audio: of the transcript's plain text). */
  contentLength: number;
  utterances: number;
  pages: number;
}

const textOnly = (content: string, pages: string[] = []): ParseOutput => ({ content, utterances: [], pages });
const transcript = (utterances: TranscriptUtterance[]): ParseOutput => ({
  content: transcriptText(utterances),
  utterances,
  pages: [],
});

async function parseImage(work: Work, input: string, detected: Detected, head: Buffer): Promise<ParseOutput> {
  // tesseract reads a non-image input as a list of file names: only real images go to it.
  const sniffed = detectKind('application/octet-stream', '', head);
  if (sniffed?.kind !== 'image') throw badInput(stepError.notImage.text({}));
  if (detected.ext === '.png' && sniffed.ext === '.png')
    return textOnly(await ocrImage(work, input), [input]);
  const { text, pdf } = await ocrImageWithPdf(work, input);
  return textOnly(text, await extractPageImages(work, pdf));
}

async function parseFile(
  work: Work,
  input: string,
  detected: Detected,
  head: Buffer,
  asr: AsrSettings,
  office: OfficeLimits,
): Promise<ParseOutput & { kind: 'text' | 'audio' }> {
  switch (detected.kind) {
    case 'txt':
      return { kind: 'text', ...textOnly(parseText(await fs.readFile(input))) };
    case 'pdf': {
      const pdf = await parsePdf(work, input);
      return { kind: 'text', ...textOnly(pdf.content, pdf.pages) };
    }
    case 'office': {
      const converted = await parseOffice(work, input, office);
      return { kind: 'text', ...textOnly(converted.content, converted.pages) };
    }
    case 'image':
      return { kind: 'text', ...(await parseImage(work, input, detected, head)) };
    case 'eml':
      return { kind: 'text', ...textOnly(await parseEmail(await fs.readFile(input))) };
    case 'json':
      return { kind: 'audio', ...transcript(parseJsonTranscript(await fs.readFile(input))) };
    case 'wav': {
      // Side by side (the recognition's programs heartbeat while the peaks stream through sox); both settle
      // before the work folder goes, then the first failure is the parse's.
      const [utterances, peaks] = await Promise.allSettled([
        transcribe(work, input, asr),
        recordingPeaks(work, input),
      ]);
      if (utterances.status === 'rejected') throw utterances.reason;
      if (peaks.status === 'rejected') throw peaks.reason;
      return { kind: 'audio', ...transcript(utterances.value), peaks: peaks.value };
    }
  }
}

/** The document's stored file copied to `dir`, with its first bytes (the type's signature). */
async function loadDocument(knex: Knex, store: FileStore, documentId: number, dir: string) {
  const doc = await documentById(knex, documentId);
  if (!doc) throw badInput(`Document ${documentId} no longer exists.`, ParserFailure.missingDocument);
  const copy = path.join(dir, 'stored');
  try {
    await store.download(doc.path, copy);
  } catch (err) {
    if (err instanceof FileMissing)
      throw badInput(
        `The stored file of document ${documentId} (${doc.filename}) is missing: upload it again.`,
        ParserFailure.missingFile,
      );
    if (err instanceof KeyOutsideStore)
      throw badInput(`The stored path of document ${documentId} is outside the files directory.`);
    throw err;
  }
  const head = Buffer.alloc(64);
  const fh = await fs.open(copy, 'r');
  try {
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  return { doc, copy, head };
}

export function createParserActivities(deps: ParserDeps) {
  const asr: AsrSettings = deps.asr ?? { engine: 'pocketsphinx' };
  const office: OfficeLimits = { ...officeLimitsFromEnv(), ...deps.office };

  const store = openFileStore(deps);

  async function parseDocument(input: ParseDocumentInput): Promise<ParseDocumentResult> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `parser-${input.documentId}-`));
    try {
      const { doc, copy, head } = await loadDocument(deps.knex, store, input.documentId, dir);
      const detected = detectKind(doc.mimeType, doc.filename, head);
      if (!detected)
        throw badInput(
          `Files of type ${doc.mimeType} cannot be parsed: upload text, PDF, an image, doc/docx/odt/ods, eml, wav or a JSON transcript.`,
          ParserFailure.unsupported,
        );
      const work = workFor(dir);
      work.heartbeat({ stage: 'start', stepId: input.stepId, attempt: input.attempt });
      // A private copy named with its type: soffice and tesseract look at the extension.
      const local = path.join(dir, `input${detected.ext}`);
      await fs.rename(copy, local);
      const out = await parseFile(work, local, detected, head, asr, office);
      work.heartbeat({ stage: 'store' });
      await storeResults(deps.knex, store, input.documentId, out);
      return {
        kind: out.kind,
        contentLength: out.content.length,
        utterances: out.utterances.length,
        pages: out.pages.length,
      };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  return {
    async parseDocument(input: ParseDocumentInput): Promise<ParseDocumentResult> {
      try {
        return await parseDocument(input);
      } catch (err) {
        // A step shows this failure's message: never the SQL or the database's text.
        throw withoutDatabaseDetail(err, `document ${input.documentId}, step ${input.stepId}`);
      }
    },
  };
}

export type ParserActivities = ReturnType<typeof createParserActivities>;
