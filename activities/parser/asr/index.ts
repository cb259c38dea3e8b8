/**
 * Speech to transcript: the recording is converted by sox to 16 kHz mono 16-bit PCM (what pocketsphinx
 * needs; also a compact upload to Whisper), recognized by the deployment's engine (ASR_ENGINE: pocketsphinx
 * by default, or whisper), and the words grouped into utterances by domain/transcript.ts (actor SPEAKER1:
 * neither engine diarizes here). The waveform peaks of the recording (server/audio-peaks.ts) are computed
 * beside the recognition, from the original file, once per parse.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AudioPeaks } from '../../../domain/audio-peaks';
import { buildUtterances, type TranscriptUtterance } from '../../../domain/transcript';
import { AudioUnreadable, computePeaks } from '../../../server/audio-peaks';
import { ProgramFailed, run } from '../run';
import { badInput, type Work } from '../work';
import { recognizeWithPocketsphinx } from './pocketsphinx';
import { recognizeWithWhisper } from './whisper';

export interface AsrSettings {
  engine: 'pocketsphinx' | 'whisper';
  whisperUrl?: string;
  whisperApiKey?: string;
  whisperModel?: string;
}

const BYTES_PER_SECOND = 16_000 * 2;
const unreadable = () =>
  badInput('The audio file cannot be read (damaged, or not a WAV recording): upload a WAV file.');

/** 16 kHz mono 16-bit WAV in the work folder; its duration in seconds. */
export async function prepareAudio(work: Work, input: string): Promise<{ wav: string; durationS: number }> {
  const wav = path.join(work.dir, 'speech-16k.wav');
  try {
    // -D: no dither, so the same file always gives the same samples (and the same transcript).
    await run(
      work,
      'sox',
      ['-D', '-t', 'wav', input, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', wav],
      {
        timeoutMs: 300_000,
      },
    );
  } catch (err) {
    if (err instanceof ProgramFailed) throw unreadable();
    throw err;
  }
  const { size } = await fs.stat(wav);
  return { wav, durationS: Math.max(0, size - 44) / BYTES_PER_SECOND };
}

export async function transcribe(
  work: Work,
  input: string,
  settings: AsrSettings,
): Promise<TranscriptUtterance[]> {
  const { wav, durationS } = await prepareAudio(work, input);
  work.heartbeat({ stage: 'recognition', durationS });
  let words;
  if (settings.engine === 'whisper') {
    if (!settings.whisperUrl)
      throw new Error('ASR_ENGINE is whisper but WHISPER_URL is not set on the worker');
    words = await recognizeWithWhisper(work, wav, durationS, {
      url: settings.whisperUrl,
      apiKey: settings.whisperApiKey,
      model: settings.whisperModel,
    });
  } else {
    words = await recognizeWithPocketsphinx(work, wav, durationS);
  }
  return buildUtterances(words);
}

/** The waveform peaks of the recording (streamed through sox; the activity's cancellation kills it). */
export async function recordingPeaks(work: Work, input: string): Promise<AudioPeaks> {
  try {
    return await computePeaks(input, { signal: work.signal, timeoutMs: 300_000 });
  } catch (err) {
    if (err instanceof AudioUnreadable) throw unreadable();
    throw err;
  }
}
