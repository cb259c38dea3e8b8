/**
 * Waveform peaks of a recording (issue 14 section 1): the minimum and maximum sample of each window of the
 * mono mix, computed once per document by the file parser (server/audio-peaks.ts) and drawn by the audio
 * player, so a browser never decodes a long recording.
 *
 * The stored and served form is the binary `.dat` format of BBC's audiowaveform, version 1, 8-bit:
 *   int32 version (1), uint32 flags (bit 0 set: 8-bit values), int32 sample rate,
 *   int32 samples per window, uint32 window count, then per window an int8 minimum and an int8 maximum
 *   (little endian throughout). 100 windows per second (10 ms) at most; a recording so long that this gives
 *   more than MAX_WINDOWS windows gets wider windows. 2 hours make 720,000 windows, 1.4 MB.
 * Decisions: one resolution stored (the player zooms from 32 to 4096 px/s; 10 ms windows are finer than the
 * screen up to 100 px/s and only interpolated above); 8 bits are finer than a waveform's pixel height. For
 * the first draw at fit width the route serves them folded to at most `?maxWindows` windows (foldPeaks: the
 * same format, wider windows), the full resolution only once the player is zoomed in.
 */

export const PEAKS_VERSION = 1;
export const PEAKS_HEADER_BYTES = 20;
export const PEAK_WINDOWS_PER_SECOND = 100;
export const MAX_WINDOWS = 2_000_000;

export interface AudioPeaks {
  sampleRate: number;
  samplesPerWindow: number;
  /** min0, max0, min1, max1, ... each -128..127 (a sample of full scale is +-127). */
  data: Int8Array;
}

/** Samples per window for a recording of `totalSamples` at `sampleRate` (0 when the length is unknown). */
export function samplesPerWindow(sampleRate: number, totalSamples: number): number {
  const base = Math.max(1, Math.round(sampleRate / PEAK_WINDOWS_PER_SECOND));
  return Math.max(base, Math.ceil(totalSamples / MAX_WINDOWS));
}

export const windowCount = (p: AudioPeaks): number => p.data.length >> 1;

/** The recording's duration as the peaks know it (seconds; the last window may be partial). */
export const peaksDuration = (p: AudioPeaks): number =>
  (windowCount(p) * p.samplesPerWindow) / Math.max(1, p.sampleRate);

export function encodePeaks(p: AudioPeaks): Uint8Array {
  const out = new Uint8Array(PEAKS_HEADER_BYTES + p.data.length);
  const view = new DataView(out.buffer);
  view.setInt32(0, PEAKS_VERSION, true);
  view.setUint32(4, 1, true);
  view.setInt32(8, p.sampleRate, true);
  view.setInt32(12, p.samplesPerWindow, true);
  view.setUint32(16, windowCount(p), true);
  out.set(new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.length), PEAKS_HEADER_BYTES);
  return out;
}

/** Reads the `.dat` bytes; throws on anything but a well-formed version 1, 8-bit file. */
export function decodePeaks(bytes: Uint8Array): AudioPeaks {
  if (bytes.length < PEAKS_HEADER_BYTES) throw new Error('peaks: too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(0, true) !== PEAKS_VERSION) throw new Error('peaks: unknown version');
  if ((view.getUint32(4, true) & 1) !== 1) throw new Error('peaks: only 8-bit peaks are read');
  const sampleRate = view.getInt32(8, true);
  const spw = view.getInt32(12, true);
  const length = view.getUint32(16, true);
  if (sampleRate <= 0 || spw <= 0) throw new Error('peaks: bad header');
  if (bytes.length !== PEAKS_HEADER_BYTES + 2 * length) throw new Error('peaks: length mismatch');
  const data = new Int8Array(bytes.buffer, bytes.byteOffset + PEAKS_HEADER_BYTES, 2 * length);
  return { sampleRate, samplesPerWindow: spw, data };
}

/**
 * The peaks with at most `maxWindows` windows: every `k` = ceil(windows / maxWindows) consecutive windows
 * become one (the smallest minimum, the largest maximum; the last one covers what is left) and the windows
 * are `k` times wider. The peaks themselves when they have no more windows than that. The duration read from
 * the result may be longer by less than one wide window (the media element's own duration is the player's).
 */
export function foldPeaks(p: AudioPeaks, maxWindows: number): AudioPeaks {
  const n = windowCount(p);
  const k = Math.ceil(n / Math.max(1, Math.floor(maxWindows)));
  if (k <= 1) return p;
  const m = Math.ceil(n / k);
  const data = new Int8Array(2 * m);
  for (let w = 0; w < m; w++) {
    const end = Math.min(n, (w + 1) * k);
    let min = 127;
    let max = -128;
    for (let i = w * k; i < end; i++) {
      if (p.data[2 * i] < min) min = p.data[2 * i];
      if (p.data[2 * i + 1] > max) max = p.data[2 * i + 1];
    }
    data[2 * w] = min;
    data[2 * w + 1] = max;
  }
  return { sampleRate: p.sampleRate, samplesPerWindow: p.samplesPerWindow * k, data };
}

/**
 * The peaks as the two channels wavesurfer.js draws from (top: the maxima, bottom: the minima, -1..1),
 * scaled so the loudest window reaches full height (a quiet recording still shows its shape).
 */
export function peaksToChannels(p: AudioPeaks): [Float32Array, Float32Array] {
  const n = windowCount(p);
  let loudest = 0;
  for (let i = 0; i < p.data.length; i++) {
    const v = Math.abs(p.data[i]);
    if (v > loudest) loudest = v;
  }
  const scale = loudest ? 1 / loudest : 0;
  const top = new Float32Array(n);
  const bottom = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    bottom[i] = Math.max(-1, p.data[2 * i] * scale);
    top[i] = Math.min(1, p.data[2 * i + 1] * scale);
  }
  return [top, bottom];
}

/**
 * Folds 16-bit samples into peaks window by window, chunk by chunk (the decoder's output streams through it:
 * a recording is never held whole). `finish` closes a partial last window.
 */
export class PeaksBuilder {
  private data: Int8Array;
  private length = 0;
  private count = 0;
  private min = 0;
  private max = 0;

  constructor(
    readonly sampleRate: number,
    readonly samplesPerWindow: number,
    expectedWindows = 1024,
  ) {
    this.data = new Int8Array(2 * Math.max(16, expectedWindows + 1));
  }

  add(samples: Int16Array): void {
    const spw = this.samplesPerWindow;
    let { count, min, max } = this;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i];
      if (count === 0) {
        min = s;
        max = s;
      } else if (s < min) min = s;
      else if (s > max) max = s;
      if (++count === spw) {
        this.push(min, max);
        count = 0;
      }
    }
    this.count = count;
    this.min = min;
    this.max = max;
  }

  finish(): AudioPeaks {
    if (this.count > 0) this.push(this.min, this.max);
    this.count = 0;
    return {
      sampleRate: this.sampleRate,
      samplesPerWindow: this.samplesPerWindow,
      data: this.data.slice(0, 2 * this.length),
    };
  }

  private push(min: number, max: number): void {
    if (2 * this.length + 2 > this.data.length) {
      const grown = new Int8Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    // 16-bit full scale (32767) to 8-bit full scale (127), rounding away from zero so a quiet sound is not 0.
    this.data[2 * this.length] = -Math.ceil((-min * 127) / 32768);
    this.data[2 * this.length + 1] = Math.ceil((max * 127) / 32768);
    this.length++;
  }
}
