/** Display formats shared by the pages (spec 1 section 9). */

/** DD/MM/YY HH:mm in the browser's time zone; '' for no date. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${two(d.getFullYear() % 100)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** DD/MM/YY HH:mm:ss in the browser's time zone (logs and audits, where seconds matter); '' for no date. */
export function formatDateSeconds(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${formatDate(iso)}:${String(d.getSeconds()).padStart(2, '0')}`;
}

/** A date as YYYY-MM-DD in the browser's time zone (the value of a date input). */
export function localDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
