/** The 18 colours a process tag can take. */
export const TAG_PALETTE = [
  '#d32f2f',
  '#c2185b',
  '#7b1fa2',
  '#512da8',
  '#303f9f',
  '#1976d2',
  '#0288d1',
  '#0097a7',
  '#00796b',
  '#388e3c',
  '#689f38',
  '#afb42b',
  '#fbc02d',
  '#ffa000',
  '#f57c00',
  '#e64a19',
  '#5d4037',
  '#546e7a',
] as const;

export const DEFAULT_TAG_COLOR = TAG_PALETTE[5];

/**
 * The colour a new tag or label starts with: the first colour (in NEW_COLOR_ORDER) none of `used` has yet,
 * and once all are taken, that order again (so that labels created one after another differ).
 */
export function nextTagColor(used: readonly (string | null | undefined)[]): string {
  const taken = new Set(used.filter(Boolean).map((c) => c!.toLowerCase()));
  return NEW_COLOR_ORDER.find((c) => !taken.has(c)) ?? NEW_COLOR_ORDER[used.length % NEW_COLOR_ORDER.length];
}

/** The palette in the order new ones take it: blue first (the old default), neighbours far apart in hue. */
const NEW_COLOR_ORDER: readonly string[] = [5, 9, 14, 2, 7, 0, 12, 4, 10, 1, 6, 15, 3, 11, 8, 13, 16, 17].map(
  (i) => TAG_PALETTE[i],
);
