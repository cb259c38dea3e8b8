/**
 * The waveform peaks of a speech document for GET api/asr-documents/{id}/peaks: those the file parser
 * stored (document_peaks), or, for a document parsed before the parser computed them (or never parsed),
 * computed from its stored recording on this first request and stored, so they are computed once. Two
 * requests for the same document on this API instance share one computation. A document without a
 * readable recording (a JSON transcript, a missing or damaged file) has none: null, and the player plays
 * the audio without a waveform. `?maxWindows` folds them for a coarse first draw (computed per request from
 * the stored peaks: a pass over them, milliseconds for 2 hours; the browser caches the answer 5 minutes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { decodePeaks, encodePeaks, foldPeaks } from '../../domain/audio-peaks';
import { insertPeaksIfMissing, peaksBytes } from '../../db/queries/document-peaks';
import type { DocumentRow } from '../../db/queries/documents';
import { AudioUnreadable, computePeaks } from '../../server/audio-peaks';
import { FileMissing, type FileStore } from '../../server/files';

const inflight = new Map<number, Promise<Buffer | null>>();

async function computeAndStore(knex: Knex, store: FileStore, doc: DocumentRow): Promise<Buffer | null> {
  // sox reads a file: a private copy of the recording (the store may be a bucket), removed afterwards.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `peaks-${doc.id}-`));
  try {
    const file = path.join(dir, 'recording');
    try {
      await store.download(doc.path, file);
    } catch (err) {
      if (err instanceof FileMissing) return null;
      throw err;
    }
    const peaks = await computePeaks(file, { timeoutMs: 120_000 });
    await insertPeaksIfMissing(knex, doc.id, peaks);
    return Buffer.from(encodePeaks(peaks));
  } catch (err) {
    if (err instanceof AudioUnreadable) return null;
    throw err;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/**
 * The `.dat` bytes of the document's peaks, or null when it has no readable recording; with `maxWindows`,
 * folded to at most that many windows (domain/audio-peaks.ts foldPeaks: the player's first draw at fit).
 */
export async function documentPeaks(
  knex: Knex,
  store: FileStore,
  doc: DocumentRow,
  maxWindows?: number,
): Promise<Buffer | null> {
  const bytes = await storedOrComputed(knex, store, doc);
  if (!bytes || maxWindows === undefined) return bytes;
  const peaks = decodePeaks(bytes);
  const folded = foldPeaks(peaks, maxWindows);
  return folded === peaks ? bytes : Buffer.from(encodePeaks(folded));
}

async function storedOrComputed(knex: Knex, store: FileStore, doc: DocumentRow): Promise<Buffer | null> {
  const stored = await peaksBytes(knex, doc.id);
  if (stored) return stored;
  // A JSON transcript is the document's file: there is no recording to draw.
  if (doc.mimeType === 'application/json') return null;
  let pending = inflight.get(doc.id);
  if (!pending) {
    pending = computeAndStore(knex, store, doc).finally(() => inflight.delete(doc.id));
    inflight.set(doc.id, pending);
  }
  return pending;
}
