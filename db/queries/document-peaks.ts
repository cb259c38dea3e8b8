/**
 * A speech document's waveform peaks (document_peaks, migration 019): the `.dat` bytes of
 * domain/audio-peaks.ts, written by the parser with its results or on a first request, read by the API.
 */
import type { Knex } from 'knex';
import { encodePeaks, windowCount, type AudioPeaks } from '../../domain/audio-peaks';

/** The stored `.dat` bytes, or null when the document has none. */
export async function peaksBytes(knex: Knex, documentId: number): Promise<Buffer | null> {
  const row = await knex('document_peaks').where('document_id', documentId).first('data');
  return row?.data ?? null;
}

/** Writes (or, with null, removes) the document's peaks; inside the parser's transaction. */
export async function replacePeaks(knex: Knex, documentId: number, peaks: AudioPeaks | null): Promise<void> {
  if (!peaks) {
    await knex('document_peaks').where('document_id', documentId).delete();
    return;
  }
  await knex('document_peaks')
    .insert({ document_id: documentId, ...peaksColumns(peaks) })
    .onConflict('document_id')
    .merge();
}

/**
 * Stores peaks computed outside a parse (a document parsed before peaks existed), unless a parse stored
 * some meanwhile or the document is gone.
 */
export async function insertPeaksIfMissing(knex: Knex, documentId: number, peaks: AudioPeaks): Promise<void> {
  const c = peaksColumns(peaks);
  await knex.raw(
    `insert into document_peaks (document_id, sample_rate, samples_per_window, windows, data)
     select d.id, ?, ?, ?, ? from documents d where d.id = ?
     on conflict (document_id) do nothing`,
    [c.sample_rate, c.samples_per_window, c.windows, c.data, documentId],
  );
}

const peaksColumns = (peaks: AudioPeaks) => ({
  sample_rate: peaks.sampleRate,
  samples_per_window: peaks.samplesPerWindow,
  windows: windowCount(peaks),
  data: Buffer.from(encodePeaks(peaks)),
});
