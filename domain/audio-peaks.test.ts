import {
  decodePeaks,
  encodePeaks,
  foldPeaks,
  MAX_WINDOWS,
  PeaksBuilder,
  peaksDuration,
  peaksToChannels,
  samplesPerWindow,
  windowCount,
} from './audio-peaks';

describe('audio peaks', () => {
  it('folds samples into min/max per window, a partial last window included', () => {
    const b = new PeaksBuilder(1000, 4);
    b.add(Int16Array.from([0, 0, 0, 0, 100, -32768, 32767, 5]));
    b.add(Int16Array.from([-300, 300]));
    const p = b.finish();
    expect(windowCount(p)).toBe(3);
    expect(Array.from(p.data)).toEqual([0, 0, -127, 127, -2, 2]);
    expect(peaksDuration(p)).toBeCloseTo(0.012, 6);
  });

  it('folds windows into wider ones: the smallest minimum, the largest maximum, the rest in the last', () => {
    const p = {
      sampleRate: 1000,
      samplesPerWindow: 10,
      data: Int8Array.from([-1, 2, -5, 1, 0, 9, -3, 3, -2, 4]),
    };
    const folded = foldPeaks(p, 2);
    expect(folded.samplesPerWindow).toBe(30);
    expect(Array.from(folded.data)).toEqual([-5, 9, -3, 4]);
    // Within the bound: the peaks themselves.
    expect(foldPeaks(p, 5)).toBe(p);
    expect(foldPeaks(p, 1).data).toEqual(Int8Array.from([-5, 9]));
    // The duration grows by less than one folded window.
    expect(peaksDuration(folded)).toBeGreaterThanOrEqual(peaksDuration(p));
    expect(peaksDuration(folded) - peaksDuration(p)).toBeLessThan(0.03);
  });

  it('grows past its first guess of the length', () => {
    const b = new PeaksBuilder(100, 1, 1);
    b.add(new Int16Array(1000).fill(16384));
    expect(windowCount(b.finish())).toBe(1000);
  });

  it('round-trips through the audiowaveform .dat v1 8-bit format', () => {
    const b = new PeaksBuilder(22050, 221);
    b.add(Int16Array.from({ length: 22050 }, (_, i) => Math.round(Math.sin(i / 10) * 20000)));
    const p = b.finish();
    const bytes = encodePeaks(p);
    expect(bytes.length).toBe(20 + p.data.length);
    const back = decodePeaks(bytes);
    expect(back.sampleRate).toBe(22050);
    expect(back.samplesPerWindow).toBe(221);
    expect(Array.from(back.data)).toEqual(Array.from(p.data));
    expect(() => decodePeaks(bytes.slice(0, 30))).toThrow(/length/);
    expect(() => decodePeaks(new Uint8Array(10))).toThrow(/short/);
  });

  it('uses 10 ms windows, wider ones only past the window limit', () => {
    expect(samplesPerWindow(16000, 16000 * 7200)).toBe(160);
    expect(samplesPerWindow(22050, 0)).toBe(221);
    const long = 16000 * 3600 * 48;
    expect(Math.ceil(long / samplesPerWindow(16000, long))).toBeLessThanOrEqual(MAX_WINDOWS);
  });

  it('gives wavesurfer maxima on top and minima below, the loudest window at full height', () => {
    const [top, bottom] = peaksToChannels({
      sampleRate: 100,
      samplesPerWindow: 1,
      data: Int8Array.from([0, 0, -32, 64, -16, 8]),
    });
    expect(Array.from(top)).toEqual([0, 1, 0.125]);
    expect(Array.from(bottom)).toEqual([0, -0.5, -0.25]);
  });
});
