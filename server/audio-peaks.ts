/**
 * Computes a recording's waveform peaks (domain/audio-peaks.ts) with sox, streaming: sox decodes and mixes
 * the file to mono 16-bit samples on its stdout and the peaks are folded chunk by chunk, so memory stays
 * at the size of the peaks whatever the recording's length (2 hours: ~1.4 MB). The sample rate is kept
 * (no resampling: the costly part of a conversion), so the windows are exact in the file's own time.
 * Shared by the file parser (activities/parser) and the API's computation on first request for documents
 * parsed before peaks existed (api/services/audio-peaks.ts): the program runs in its own process group
 * and is killed with it on the time limit or the caller's abort.
 */
import { spawn } from 'node:child_process';
import { PeaksBuilder, samplesPerWindow, type AudioPeaks } from '../domain/audio-peaks';

export interface PeaksRunOptions {
  /** Aborting kills sox; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Default 300 s. */
  timeoutMs?: number;
}

/** sox could not read the file as audio (not a recording, damaged): a cause a retry does not change. */
export class AudioUnreadable extends Error {
  constructor(readonly detail: string) {
    super(`The audio cannot be read: ${detail}`);
    this.name = 'AudioUnreadable';
  }
}

const STDERR_KEEP = 4096;

interface Spawned {
  /** Resolves when the program exits with 0; rejects otherwise. */
  done: Promise<void>;
  stdout: NodeJS.ReadableStream;
}

function spawnSox(args: string[], opts: PeaksRunOptions): Spawned {
  const child = spawn('sox', args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let failure: Error | null = null;
  const kill = (why: Error) => {
    failure ??= why;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const onAbort = () =>
    kill(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
  if (opts.signal?.aborted) onAbort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const timer = setTimeout(
    () => kill(new Error(`sox did not finish within ${Math.round(timeoutMs / 1000)} s`)),
    timeoutMs,
  );
  child.stderr.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString('utf8')).slice(-STDERR_KEEP);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        err.code === 'ENOENT' ? new Error('sox is not installed (run scripts/install-system-deps.sh)') : err,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else if (code !== 0) reject(new AudioUnreadable(stderr.trim().split('\n').slice(-2).join(' | ')));
      else resolve();
    });
  });
  return { done, stdout: child.stdout };
}

/** The sample rate and the sample count per channel the file's header states (`sox --i`). */
async function audioInfo(file: string, opts: PeaksRunOptions): Promise<{ rate: number; samples: number }> {
  const read = async (flag: string) => {
    const p = spawnSox(['--i', flag, file], opts);
    let out = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    await p.done;
    return Number(out.trim());
  };
  const rate = await read('-r');
  const samples = await read('-s');
  if (!Number.isFinite(rate) || rate <= 0) throw new AudioUnreadable('no sample rate');
  return { rate: Math.round(rate), samples: Number.isFinite(samples) && samples > 0 ? samples : 0 };
}

/** The peaks of the audio file at `file` (any format sox reads). */
export async function computePeaks(file: string, opts: PeaksRunOptions = {}): Promise<AudioPeaks> {
  const { rate, samples } = await audioInfo(file, opts);
  const spw = samplesPerWindow(rate, samples);
  const builder = new PeaksBuilder(rate, spw, Math.ceil(samples / spw));
  // -D: no dither (the same file gives the same peaks); mono mix, 16-bit little-endian raw on stdout.
  const p = spawnSox(
    ['-D', file, '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-c', '1', '-L', '-'],
    opts,
  );
  let carry: Buffer | null = null;
  p.stdout.on('data', (chunk: Buffer) => {
    let buf = carry ? Buffer.concat([carry, chunk]) : chunk;
    carry = null;
    if (buf.length % 2) {
      carry = Buffer.from(buf.subarray(buf.length - 1));
      buf = buf.subarray(0, buf.length - 1);
    }
    // An Int16Array needs an even byte offset: a copy when the chunk does not have one.
    if (buf.byteOffset % 2) buf = Buffer.from(buf);
    builder.add(new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2));
  });
  await p.done;
  return builder.finish();
}
