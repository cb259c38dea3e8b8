/** Formatting of the watching pages. */
export { formatDateSeconds as formatDateTime } from '../../../../components/format';

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${v.toFixed(u ? 1 : 0)} ${units[u]}`;
}

export const formatMs = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? '-' : `${(seconds * 1000).toFixed(1)} ms`;

export function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${d ? `${d}d ` : ''}${h}h ${m}m ${s % 60}s`;
}
