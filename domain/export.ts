/**
 * Export of a node's step results (spec 3 section 5 "Export", section 7 `GET api/nodes/{id}/export-step-result`;
 * issue 16 section 2): the request rules (format per node type, CSV delimiter, date range) and the pure row
 * formatting (JSON, CSV, CoNLL-2003, JSONL). The API streams rows from PostgreSQL and formats each with these
 * functions, so memory does not grow with the number of rows.
 *
 * One row is one step of the node that is finished (DONE or ACCEPTED) and whose last change falls in the range:
 * - CLF: the names of the document's classes on the node;
 * - SPAN / LEXICON: the document's tags of the node's labels (label, start, end, text; UTF-16 offsets into the
 *   document's text) and the relations between them (from, to: tag ids; type: relation type name);
 * - LLM_PROMPT: the node's latest LLM response for the step.
 *
 * CoNLL-2003 tokenisation (`tokenize`): a token is a maximal run of letters, marks and digits, or any other
 * single non-space character; whitespace separates tokens and a line break ends a sentence (a blank line).
 * Each token line is `token _ _ TAG` (the POS and chunk columns of CoNLL-2003 are not known: `_`), TAG is
 * `B-label` on the first token a tag overlaps, `I-label` on the next ones, `O` elsewhere; spaces of a label
 * name become `_`. BIO cannot hold overlapping tags: a token keeps the tag that starts first (the longer one
 * at the same start). Documents start with `-DOCSTART- -X- -X- O` and a `# document {id} {filename}` comment.
 */

export const ExportFormats = ['json', 'csv', 'conll', 'jsonl'] as const;
export type ExportFormat = (typeof ExportFormats)[number];

export type ExportKind = 'CLF' | 'SPAN' | 'LLM';

/** Which results a node type exports (null: none). LEXICON tags are spans like SPAN's. */
export function exportKindOf(activityType: string): ExportKind | null {
  if (activityType === 'CLF') return 'CLF';
  if (activityType === 'SPAN' || activityType === 'LEXICON') return 'SPAN';
  if (activityType === 'LLM_PROMPT') return 'LLM';
  return null;
}

/** The formats of each kind: JSON and CSV for all; CoNLL and JSONL spans for SPAN; JSONL classes for CLF. */
export function exportFormatsOf(kind: ExportKind): ExportFormat[] {
  if (kind === 'SPAN') return ['json', 'csv', 'conll', 'jsonl'];
  if (kind === 'CLF') return ['json', 'csv', 'jsonl'];
  return ['json', 'csv'];
}

export const EXPORT_LIMITS = { maxDays: 31, defaultDelimiter: ',' } as const;

export interface ExportViolation {
  field: 'format' | 'delimiter' | 'from' | 'to';
  code: 'NotBlank' | 'Size' | 'Pattern';
  key: string;
}

const K = 'soaApp.nodePanel.export.errors';

/** The CSV delimiter: one character, not empty, not a double quote (nor a line break, which ends a row). */
export function delimiterViolation(delimiter: string): ExportViolation | null {
  if (delimiter === '') return { field: 'delimiter', code: 'NotBlank', key: `${K}.delimiterRequired` };
  if ([...delimiter].length !== 1) return { field: 'delimiter', code: 'Size', key: `${K}.delimiterLength` };
  if (delimiter === '"') return { field: 'delimiter', code: 'Pattern', key: `${K}.delimiterQuote` };
  if (delimiter === '\n' || delimiter === '\r')
    return { field: 'delimiter', code: 'Pattern', key: `${K}.delimiterLineBreak` };
  return null;
}

export const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` as a UTC day number, null when not a real date. */
export function dayOf(value: string): number | null {
  if (!DATE.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
  return ms / DAY_MS;
}

/** The same day one month earlier (the last day of that month when it is shorter). */
export function monthBefore(today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const year = m === 1 ? y - 1 : y;
  const month = m === 1 ? 12 : m - 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface DateRange {
  /** first day, `YYYY-MM-DD` (from its start, UTC) */
  from: string;
  /** last day, `YYYY-MM-DD` (to its end, UTC) */
  to: string;
}

/**
 * The range of an export: default the last month (one month before today to today); `to` not after today,
 * `from` not after `to`, and `to` at most 31 days after `from`.
 */
export function exportRange(
  from: string | undefined,
  to: string | undefined,
  today: string,
): { range: DateRange } | { violations: ExportViolation[] } {
  const range = { from: from || monthBefore(to || today), to: to || today };
  const violations: ExportViolation[] = [];
  const fromDay = dayOf(range.from);
  const toDay = dayOf(range.to);
  if (fromDay === null) violations.push({ field: 'from', code: 'Pattern', key: `${K}.dateInvalid` });
  if (toDay === null) violations.push({ field: 'to', code: 'Pattern', key: `${K}.dateInvalid` });
  if (fromDay !== null && toDay !== null) {
    if (toDay > (dayOf(today) ?? toDay))
      violations.push({ field: 'to', code: 'Pattern', key: `${K}.dateFuture` });
    else if (fromDay > toDay) violations.push({ field: 'from', code: 'Pattern', key: `${K}.dateOrder` });
    else if (toDay - fromDay > EXPORT_LIMITS.maxDays)
      violations.push({ field: 'to', code: 'Size', key: `${K}.rangeTooLong` });
  }
  return violations.length ? { violations } : { range };
}

/** The range as instants: [from 00:00 UTC, the day after `to` 00:00 UTC). */
export function rangeInstants(range: DateRange): { start: Date; end: Date } {
  return {
    start: new Date(`${range.from}T00:00:00Z`),
    end: new Date((dayOf(range.to)! + 1) * DAY_MS),
  };
}

/** The download's filename: node, range and extension. */
export function exportFilename(nodeId: number, range: DateRange, format: ExportFormat): string {
  const ext = format === 'conll' ? 'conll' : format;
  return `step-results-node-${nodeId}-${range.from}_${range.to}.${ext}`;
}

export const exportContentType = (format: ExportFormat): string =>
  ({
    json: 'application/json; charset=utf-8',
    csv: 'text/csv; charset=utf-8',
    conll: 'text/plain; charset=utf-8',
    jsonl: 'application/x-ndjson; charset=utf-8',
  })[format];

// --- rows ---

export interface ExportTag {
  id: number;
  label: string;
  /** UTF-16 offsets into the document's text; null for transcript tags (linked to tokens) */
  start: number | null;
  end: number | null;
}

export interface ExportRelation {
  from: number;
  to: number;
  type: string;
}

/** One row as read from the database. */
export interface StepResultRecord {
  stepId: number;
  documentId: number;
  filename: string;
  status: string;
  finishedAt: string;
  classes?: string[];
  tags?: ExportTag[];
  relations?: ExportRelation[];
  /** the document's text (SPAN) */
  content?: string;
  response?: string | null;
}

type Tagged = ExportTag & { text: string | null };

const withText = (tags: ExportTag[], content: string): Tagged[] =>
  tags.map((t) => ({
    ...t,
    text: t.start === null || t.end === null ? null : content.slice(t.start, t.end),
  }));

/** The row of JSON and CSV exports (what the spec's export holds per step). */
export function exportRow(kind: ExportKind, r: StepResultRecord): Record<string, unknown> {
  const base = {
    stepId: r.stepId,
    documentId: r.documentId,
    filename: r.filename,
    status: r.status,
    finishedAt: r.finishedAt,
  };
  if (kind === 'CLF') return { ...base, classes: r.classes ?? [] };
  if (kind === 'LLM') return { ...base, response: r.response ?? null };
  return { ...base, tags: withText(r.tags ?? [], r.content ?? ''), relations: r.relations ?? [] };
}

export function csvHeader(kind: ExportKind): string[] {
  const base = ['stepId', 'documentId', 'filename', 'status', 'finishedAt'];
  if (kind === 'CLF') return [...base, 'classes'];
  if (kind === 'LLM') return [...base, 'response'];
  return [...base, 'tags', 'relations'];
}

/** A CSV field (RFC 4180): quoted when it holds the delimiter, a quote, a line break or edge spaces. */
export function csvCell(value: unknown, delimiter: string): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const needsQuotes =
    text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim() || /^[=+\-@]/.test(text);
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: unknown[], delimiter: string): string =>
  values.map((v) => csvCell(v, delimiter)).join(delimiter) + '\r\n';

/** A CSV row: lists of classes are joined by `; `, tags and relations are JSON. */
export function csvRow(kind: ExportKind, r: StepResultRecord, delimiter: string): string {
  const row = exportRow(kind, r);
  const values = csvHeader(kind).map((k) =>
    k === 'classes' ? (row.classes as string[]).join('; ') : row[k],
  );
  return csvLine(values, delimiter);
}

/** A JSONL line: spans {text, start, end, label} with relations (SPAN), or the document's labels (CLF). */
export function jsonlLine(kind: ExportKind, r: StepResultRecord): string {
  const head = { documentId: r.documentId, stepId: r.stepId, filename: r.filename };
  if (kind === 'CLF') return JSON.stringify({ ...head, labels: r.classes ?? [] }) + '\n';
  const content = r.content ?? '';
  const spans = withText(r.tags ?? [], content)
    .filter((t) => t.start !== null)
    .map((t) => ({ id: t.id, text: t.text, start: t.start, end: t.end, label: t.label }));
  return JSON.stringify({ ...head, text: content, spans, relations: r.relations ?? [] }) + '\n';
}

// --- CoNLL-2003 ---

export interface Token {
  text: string;
  start: number;
  end: number;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]|\n/gu;

/** Tokens of the text; `\n` entries mark line breaks (sentence ends). */
export function tokenize(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const conllLabel = (label: string) => label.trim().replace(/\s+/g, '_');

/** BIO tags of the tokens (line-break tokens excluded) for the spans. */
export function bioTags(tokens: Token[], spans: { start: number; end: number; label: string }[]): string[] {
  const ordered = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const tags = tokens.map(() => 'O');
  for (const s of ordered) {
    let first = true;
    tokens.forEach((t, i) => {
      if (t.text === '\n' || t.end <= s.start || t.start >= s.end) return;
      if (tags[i] === 'O') tags[i] = `${first ? 'B' : 'I'}-${conllLabel(s.label)}`;
      first = false;
    });
  }
  return tags;
}

/** One document's CoNLL-2003 block. */
export function conllBlock(r: StepResultRecord): string {
  const content = r.content ?? '';
  const tokens = tokenize(content);
  const spans = (r.tags ?? []).filter(
    (t): t is ExportTag & { start: number; end: number } => t.start !== null && t.end !== null,
  );
  const tags = bioTags(tokens, spans);
  const lines = ['-DOCSTART- -X- -X- O', `# document ${r.documentId} ${r.filename.replace(/\s+/g, ' ')}`, ''];
  let open = false;
  tokens.forEach((t, i) => {
    if (t.text === '\n') {
      if (open) lines.push('');
      open = false;
      return;
    }
    lines.push(`${t.text} _ _ ${tags[i]}`);
    open = true;
  });
  if (open) lines.push('');
  return lines.join('\n') + '\n';
}

/**
 * Spans back from a CoNLL block and the document's text (the round trip): tokens are found in the text in
 * order, consecutive `I-` tokens of the same label extend the span a `B-` token starts.
 */
export function spansFromConll(
  content: string,
  block: string,
): { start: number; end: number; label: string }[] {
  const spans: { start: number; end: number; label: string }[] = [];
  let at = 0;
  let current: { start: number; end: number; label: string } | null = null;
  for (const line of block.split('\n')) {
    if (!line || line.startsWith('-DOCSTART-') || line.startsWith('# document ')) continue;
    const parts = line.split(' ');
    const token = parts.slice(0, -3).join(' ');
    const tag = parts[parts.length - 1];
    const start = content.indexOf(token, at);
    if (start < 0) throw new Error(`token ${token} not in the text after ${at}`);
    const end = start + token.length;
    at = end;
    if (tag.startsWith('B-') || (tag.startsWith('I-') && current?.label !== tag.slice(2))) {
      current = { start, end, label: tag.slice(2) };
      spans.push(current);
    } else if (tag.startsWith('I-') && current) current.end = end;
    else current = null;
  }
  return spans;
}

/** What an export request asks, validated: the node's kind, the format, the delimiter and the range. */
export interface ExportPlan {
  kind: ExportKind;
  format: ExportFormat;
  delimiter: string;
  range: DateRange;
}

/**
 * The rules of an export request (spec 3 sections 5 and 7): the node must be exportable, the format one of its
 * kind's, a CSV delimiter one character and no double quote, the range valid. Every refusal at once.
 */
export function planExport(q: {
  activityType: string;
  format?: string;
  delimiter?: string;
  from?: string;
  to?: string;
  today: string;
}): { plan: ExportPlan } | { violations: ExportViolation[] } {
  const violations: ExportViolation[] = [];
  const kind = exportKindOf(q.activityType);
  const format = (q.format || 'json').toLowerCase() as ExportFormat;
  if (!kind) violations.push({ field: 'format', code: 'Pattern', key: `${K}.notExportable` });
  else if (!exportFormatsOf(kind).includes(format))
    violations.push({ field: 'format', code: 'Pattern', key: `${K}.formatUnsupported` });
  const delimiter = q.delimiter ?? EXPORT_LIMITS.defaultDelimiter;
  if (format === 'csv') {
    const bad = delimiterViolation(delimiter);
    if (bad) violations.push(bad);
  }
  const range = exportRange(q.from, q.to, q.today);
  if ('violations' in range) violations.push(...range.violations);
  if (violations.length || !kind || 'violations' in range) return { violations };
  return { plan: { kind, format, delimiter, range: range.range } };
}

/** The export's text, batch by batch: JSON array, CSV with its header, CoNLL blocks or JSONL lines. */
export async function* exportText(
  batches: AsyncIterable<StepResultRecord[]>,
  { kind, format, delimiter }: ExportPlan,
): AsyncGenerator<string> {
  if (format === 'json') yield '[';
  if (format === 'csv') yield csvLine(csvHeader(kind), delimiter);
  let first = true;
  for await (const rows of batches) {
    switch (format) {
      case 'csv':
        yield rows.map((r) => csvRow(kind, r, delimiter)).join('');
        break;
      case 'conll':
        // a blank line between the documents of two batches too
        yield `${first ? '' : '\n'}${rows.map(conllBlock).join('\n')}`;
        break;
      case 'jsonl':
        yield rows.map((r) => jsonlLine(kind, r)).join('');
        break;
      case 'json':
        yield rows
          .map((r, i) => `${first && i === 0 ? '\n' : ',\n'}${JSON.stringify(exportRow(kind, r))}`)
          .join('');
    }
    first = false;
  }
  if (format === 'json') yield first ? ']\n' : '\n]\n';
}
