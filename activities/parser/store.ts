/**
 * Writes a parse's results in one transaction that replaces whatever an earlier parse of the document left:
 * the content (document_contents), the utterances with their tokens and token hints, and the page rows
 * (document_pages) with their PNG files (staged in the file store, server/files.ts), and a recording's waveform peaks (document_peaks). The document row is locked first, so two parses of one document
 * (a retry racing a slow attempt, a rerun) are serialized, and a retry or a rerun never duplicates.
 * The rows are written by the query modules of their tables (db/queries).
 */
import type { Knex } from 'knex';
import { writeContent } from '../../db/queries/document-contents';
import { pagePaths, replacePages } from '../../db/queries/document-pages';
import { replacePeaks } from '../../db/queries/document-peaks';
import { lockDocument, touchDocument } from '../../db/queries/documents';
import { replaceTranscript } from '../../db/queries/utterances';
import type { AudioPeaks } from '../../domain/audio-peaks';
import type { TranscriptUtterance } from '../../domain/transcript';
import type { FileStore } from '../../server/files';
import { badInput, ParserFailure } from './work';

export interface ParseOutput {
  content: string;
  utterances: TranscriptUtterance[];
  /** PNG files in the work folder, in page order. */
  pages: string[];
  /** A recording's waveform peaks (none for text, nor for a JSON transcript, which has no audio). */
  peaks?: AudioPeaks | null;
}

export async function storeResults(
  knex: Knex,
  store: FileStore,
  documentId: number,
  out: ParseOutput,
): Promise<void> {
  const staged = await store.stagePages(documentId, out.pages);
  const swap: { done?: Awaited<ReturnType<typeof staged.swapIn>> } = {};
  try {
    await knex.transaction(async (trx) => {
      if (!(await lockDocument(trx, documentId)))
        throw badInput(`Document ${documentId} no longer exists.`, ParserFailure.missingDocument);
      const previousPages = await pagePaths(trx, [documentId]);
      await writeContent(trx, documentId, out.content);
      await replaceTranscript(trx, documentId, out.utterances);
      await replacePages(trx, documentId, staged.rows);
      await replacePeaks(trx, documentId, out.peaks ?? null);
      await touchDocument(trx, documentId);
      // Last, under the row lock: the files change hands only with a transaction about to commit.
      swap.done = await staged.swapIn(previousPages);
    });
  } catch (err) {
    if (swap.done) await swap.done.undo();
    else await staged.discard();
    throw err;
  }
  await swap.done?.cleanup();
}
