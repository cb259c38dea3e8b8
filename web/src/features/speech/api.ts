/**
 * The speech player's server state: the waveform peaks of a speech document
 * (GET api/asr-documents/{id}/peaks, the binary `.dat` of domain/audio-peaks.ts, fetched with the bearer
 * token; folded to FIT_WINDOWS for the first draw at fit width, the full resolution once zoomed in) and the address the media element streams the audio from (GET api/asr-documents/{id}/audio with
 * the query token: a media element cannot send a header; the server answers range requests).
 */
import { queryOptions } from '@tanstack/react-query';
import { decodePeaks, peaksDuration, peaksToChannels } from '@domain/audio-peaks';
import { basePath } from '../../config';
import { getAuthToken } from '../../api/client';

export interface WaveformPeaks {
  /** [maxima, minima] in -1..1, as wavesurfer draws them. */
  channels: [Float32Array, Float32Array];
  durationS: number;
}

/**
 * The windows of the peaks drawn at fit width (whatever the length: 16 KB), more than a screen's pixels; the
 * full resolution (100 windows a second, 1.4 MB for 2 hours) is fetched once the waveform is zoomed in.
 */
export const FIT_WINDOWS = 8192;

export const speechKeys = {
  all: ['speech'] as const,
  /** `maxWindows` undefined: the full resolution. */
  peaks: (documentId: number, maxWindows?: number) =>
    [...speechKeys.all, documentId, 'peaks', maxWindows ?? 'full'] as const,
};

/**
 * The peaks (folded to at most `maxWindows` windows when given), or null when the document has none the
 * server can give (no audio, unreadable audio).
 */
export async function fetchPeaks(
  documentId: number,
  signal?: AbortSignal,
  maxWindows?: number,
): Promise<WaveformPeaks | null> {
  const token = getAuthToken();
  const query = maxWindows === undefined ? '' : `?maxWindows=${maxWindows}`;
  const res = await fetch(`${basePath()}api/asr-documents/${documentId}/peaks${query}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!res.ok) {
    // Read the refusal's body: unread, Chromium keeps the request open (the page never goes network-idle).
    await res.arrayBuffer().catch(() => undefined);
    if (res.status === 404) return null;
    throw new Error(`HTTP ${res.status}`);
  }
  const peaks = decodePeaks(new Uint8Array(await res.arrayBuffer()));
  return { channels: peaksToChannels(peaks), durationS: peaksDuration(peaks) };
}

export const speechQueries = {
  peaks: (documentId: number, maxWindows?: number) =>
    queryOptions({
      queryKey: speechKeys.peaks(documentId, maxWindows),
      queryFn: ({ signal }) => fetchPeaks(documentId, signal, maxWindows),
      // Computed once per document by the parser: they change only when the document is parsed again.
      staleTime: Number.POSITIVE_INFINITY,
      retry: 1,
    }),
};

/** The streamed audio's address (the token in the query: media elements cannot send headers). */
export function audioStreamUrl(documentId: number): string {
  const token = getAuthToken();
  const query = token ? `?access_token=${encodeURIComponent(token)}` : '';
  return `${basePath()}api/asr-documents/${documentId}/audio${query}`;
}
