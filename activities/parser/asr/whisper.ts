/**
 * Speech recognition through a Whisper-compatible HTTP endpoint (the OpenAI audio transcription API):
 * POST {WHISPER_URL}/v1/audio/transcriptions as multipart form data with the audio, the model,
 * response_format=verbose_json and timestamp_granularities[]=word; the answer's `words` [{word, start, end}]
 * (seconds; `probability` where the server gives one) become recognized words. No alternatives: no hints.
 * A 4xx about the request itself (400, 413, 415, 422) is bad input; anything else is retried.
 */
import fs from 'node:fs/promises';
import type { RecognizedWord } from '../../../domain/transcript';
import { badInput, cancellationError, type Work } from '../work';

export interface WhisperSettings {
  url: string;
  apiKey?: string;
  model?: string;
}

interface VerboseJson {
  text?: string;
  words?: { word: string; start: number; end: number; probability?: number }[];
  segments?: { start: number; end: number; text: string }[];
}

export function wordsFromVerboseJson(body: VerboseJson): RecognizedWord[] {
  if (Array.isArray(body.words)) {
    return body.words.map((w) => ({
      value: String(w.word ?? ''),
      startMs: Number(w.start) * 1000,
      endMs: Number(w.end) * 1000,
      confidence: typeof w.probability === 'number' ? w.probability : null,
    }));
  }
  // A server without word timestamps: spread each segment's words evenly over the segment.
  return (body.segments ?? []).flatMap((s) => {
    const parts = s.text.trim().split(/\s+/).filter(Boolean);
    const step = ((s.end - s.start) * 1000) / Math.max(1, parts.length);
    return parts.map((value, i) => ({
      value,
      startMs: s.start * 1000 + i * step,
      endMs: s.start * 1000 + (i + 1) * step,
      confidence: null,
    }));
  });
}

export async function recognizeWithWhisper(
  work: Work,
  wav: string,
  durationS: number,
  settings: WhisperSettings,
): Promise<RecognizedWord[]> {
  const form = new FormData();
  form.append('file', new Blob([await fs.readFile(wav)], { type: 'audio/wav' }), 'audio.wav');
  form.append('model', settings.model || 'whisper-1');
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'word');
  const url = `${settings.url.replace(/\/+$/, '')}/v1/audio/transcriptions`;
  const signal = AbortSignal.any([work.signal, AbortSignal.timeout(Math.round(120_000 + durationS * 5_000))]);
  const beat = setInterval(() => work.heartbeat({ stage: 'whisper' }), 5000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      body: form,
      headers: settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {},
      signal,
    });
    const text = await res.text();
    if ([400, 413, 415, 422].includes(res.status))
      throw badInput(`The speech recognizer refused the audio (HTTP ${res.status}): ${text.slice(0, 300)}`);
    if (!res.ok) throw new Error(`The speech recognizer answered HTTP ${res.status}: ${text.slice(0, 300)}`);
    let body: VerboseJson;
    try {
      body = JSON.parse(text) as VerboseJson;
    } catch {
      throw new Error(`The speech recognizer answered something that is not JSON: ${text.slice(0, 200)}`);
    }
    return wordsFromVerboseJson(body);
  } catch (err) {
    if (work.signal.aborted) throw cancellationError(work.signal);
    throw err;
  } finally {
    clearInterval(beat);
  }
}
