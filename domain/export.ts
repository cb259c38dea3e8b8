/**
 * Export of a node's step results (spec 3 section 5 "Export", section 7 `GET api/nodes/{id}/export-step-result`;
 * issue 16 section 2): the request rules (format per node type, CSV delimiter, date range) and the pure row
 * formatting (JSON, CSV, CoNLL-2003, JSONL). The API streams rows from PostgreSQL and formats each with these
 * functions, so memory does not grow with the number of rows nor with the size of a document.
 *
 * One row is one step of the node that is finished (DONE or ACCEPTED) and whose last change falls in the range:
 * - CLF: the names of the document's classes on the node;
 * - SPAN / LEXICON: the document's tags of the node's labels (label, start, end, text; UTF-16 offsets into the
 *   document's text) and the relations between them (from, to: tag ids; type: relation type name);
 * - LLM_PROMPT: the node's latest LLM response for the step.
 *
 * CoNLL-2003 (domain/export-conll.ts): per document `-DOCSTART- -X- -X- O`, a `# document {id} {filename}`
 * comment, then `token _ _ TAG` lines (BIO), a blank line after each line of the text.
 *
 * Bounded memory and time whatever a document's size (issue 25 finding 1): a long document's text comes in
 * pieces (`contentPieces`, read by the database layer), every format walks the pieces once with the tags sorted
 * once, and the output comes in strings of about EXPORT_FLUSH characters, each made by bounded work.
 */

import { ConllWriter, TagTexts, conllHead, textPieces } from './export-conll';

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
  /** the document's text (SPAN), when it came with the row */
  content?: string;
  /** the document's text (SPAN) read piece by piece, when it is too long to come with the row */
  contentPieces?: () => AsyncIterable<string>;
  response?: string | null;
}

type Tagged = ExportTag & { text: string | null };
type OffsetTag = ExportTag & { start: number; end: number };

const hasOffsets = (t: ExportTag): t is OffsetTag => t.start !== null && t.end !== null;

/** The tags with their texts, from the texts of their offset tags in order (transcript tags: null). */
/**
 * The tags with their texts (`texts` holds those of the tags with offsets, in order), as a function of the
 * index: made group by group by jsonArray, never all at once (100,000 copies took ~70 ms in one step).
 */
function tagged(tags: ExportTag[], texts: string[]): (t: ExportTag, index: number) => Tagged {
  const textAt = new Int32Array(tags.length);
  let n = 0;
  for (let i = 0; i < tags.length; i++) textAt[i] = hasOffsets(tags[i]) ? n++ : -1;
  return (t, i) => ({ ...t, text: textAt[i] >= 0 ? texts[textAt[i]] : null });
}

const rowBase = (r: StepResultRecord) => ({
  stepId: r.stepId,
  documentId: r.documentId,
  filename: r.filename,
  status: r.status,
  finishedAt: r.finishedAt,
});

export function csvHeader(kind: ExportKind): string[] {
  const base = ['stepId', 'documentId', 'filename', 'status', 'finishedAt'];
  if (kind === 'CLF') return [...base, 'classes'];
  if (kind === 'LLM') return [...base, 'response'];
  return [...base, 'tags', 'relations'];
}

/** What a spreadsheet reads as a formula (or as the start of one) in a cell's first character (OWASP). */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * A CSV field (RFC 4180): quoted when it holds the delimiter, a quote, a line break or edge spaces. A field
 * that a spreadsheet would evaluate (first character `= + - @`, tab or carriage return: names and LLM answers
 * are users' text) is neutralised the OWASP way: quoted, with a leading apostrophe, so it reads as text.
 */
export function csvCell(value: unknown, delimiter: string): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const formula = FORMULA.test(text);
  const needsQuotes = formula || text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${formula ? "'" : ''}${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (values: unknown[], delimiter: string): string =>
  values.map((v) => csvCell(v, delimiter)).join(delimiter) + '\r\n';

/** Items of a long array stringified per JSON_GROUP, so that no single step stringifies them all. */
const JSON_GROUP = 1000;

/**
 * A JSON array of `items` (each first turned into what is written by `as`, group by group), the same text as
 * JSON.stringify of the mapped array.
 */
function* jsonArray<T>(
  items: readonly T[],
  as: (x: T, index: number) => unknown = (x) => x,
): Generator<string> {
  if (!items.length) {
    yield '[]';
    return;
  }
  for (let i = 0; i < items.length; i += JSON_GROUP) {
    const group: string[] = [];
    for (let k = i; k < Math.min(items.length, i + JSON_GROUP); k++)
      group.push(JSON.stringify(as(items[k], k)));
    yield (i ? ',' : '[') + group.join(',');
  }
  yield ']';
}

/** A CSV field holding a JSON array, group by group (as csvCell of its JSON: a non-empty one has quotes). */
function* csvJsonCell<T>(
  items: readonly T[],
  delimiter: string,
  as?: (x: T, index: number) => unknown,
): Generator<string> {
  if (!items.length) {
    yield csvCell('[]', delimiter);
    return;
  }
  yield '"';
  for (const part of jsonArray(items, as)) yield part.replace(/"/g, '""');
  yield '"';
}

/**
 * One row's text in a format, written as the row's document text comes piece by piece (SPAN; other kinds
 * have no text): `start` before the pieces, `write` for each, `end` after them, each part of bounded size.
 */
interface RowWriter {
  start: string;
  write(piece: string): string;
  end(): Iterable<string>;
}

/** The JSON and CSV rows of SPAN nodes hold their tags' texts: collected from the pieces. */
function spanRowWriter(
  r: StepResultRecord,
  format: 'json' | 'csv',
  delimiter: string,
  separator: string,
): RowWriter {
  const tags = r.tags ?? [];
  const texts = new TagTexts(tags.filter(hasOffsets));
  const relations = r.relations ?? [];
  const base = rowBase(r);
  return {
    start: separator,
    write: (piece) => {
      texts.write(piece);
      return '';
    },
    *end() {
      const withText = tagged(tags, texts.result());
      if (format === 'json') {
        yield `${JSON.stringify(base).slice(0, -1)},"tags":`;
        yield* jsonArray(tags, withText);
        yield ',"relations":';
        yield* jsonArray(relations);
        yield '}';
        return;
      }
      yield csvLine(Object.values(base), delimiter).slice(0, -2) + delimiter;
      yield* csvJsonCell(tags, delimiter, withText);
      yield delimiter;
      yield* csvJsonCell(relations, delimiter);
      yield '\r\n';
    },
  };
}

/** A JSONL line of a SPAN node: the text as it comes, then the spans with their texts and the relations. */
function jsonlSpanWriter(r: StepResultRecord): RowWriter {
  const tags = (r.tags ?? []).filter(hasOffsets);
  const texts = new TagTexts(tags);
  const head = { documentId: r.documentId, stepId: r.stepId, filename: r.filename };
  return {
    start: `${JSON.stringify(head).slice(0, -1)},"text":"`,
    write: (piece) => {
      texts.write(piece);
      // pieces never split a surrogate pair, so their escapes are the escape of the whole text
      return JSON.stringify(piece).slice(1, -1);
    },
    *end() {
      const found = texts.result();
      yield '","spans":';
      yield* jsonArray(tags, (t, i) => ({
        id: t.id,
        text: found[i],
        start: t.start,
        end: t.end,
        label: t.label,
      }));
      yield ',"relations":';
      yield* jsonArray(r.relations ?? []);
      yield '}\n';
    },
  };
}

function conllWriter(r: StepResultRecord, separator: string): RowWriter {
  const writer = new ConllWriter((r.tags ?? []).filter(hasOffsets));
  return {
    start: separator + conllHead(r.documentId, r.filename),
    write: (piece) => writer.write(piece),
    end: () => [writer.end()],
  };
}

const noText = (start: string): RowWriter => ({ start, write: () => '', end: () => [] });

/** The writer of the `index`-th row of an export. */
function rowWriter({ kind, format, delimiter }: ExportPlan, r: StepResultRecord, index: number): RowWriter {
  const separator = format === 'json' ? (index ? ',\n' : '\n') : format === 'conll' && index ? '\n' : '';
  if (format === 'conll') return conllWriter(r, separator);
  if (kind === 'SPAN') {
    if (format === 'jsonl') return jsonlSpanWriter(r);
    return spanRowWriter(r, format, delimiter, separator);
  }
  const base = rowBase(r);
  const value = kind === 'CLF' ? (r.classes ?? []) : (r.response ?? null);
  switch (format) {
    case 'json':
      return noText(
        separator +
          JSON.stringify(kind === 'CLF' ? { ...base, classes: value } : { ...base, response: value }),
      );
    case 'csv':
      return noText(
        csvLine([...Object.values(base), kind === 'CLF' ? (value as string[]).join('; ') : value], delimiter),
      );
    default:
      return noText(
        JSON.stringify({ documentId: r.documentId, stepId: r.stepId, filename: r.filename, labels: value }) +
          '\n',
      );
  }
}

/** Output parts gathered until there are EXPORT_FLUSH characters to hand on (one write per flush). */
export const EXPORT_FLUSH = 1 << 16;

/**
 * The export's text: JSON array, CSV with its header, CoNLL blocks or JSONL lines, in strings of about
 * EXPORT_FLUSH characters. Each string is produced by bounded work (at most TEXT_PIECE units of a document's
 * text or JSON_GROUP tags past EXPORT_FLUSH), so a caller that yields to the event loop between strings never
 * holds it long, and one document's text is held a piece at a time (when it comes in pieces).
 */
export async function* exportText(
  batches: AsyncIterable<StepResultRecord[]>,
  plan: ExportPlan,
): AsyncGenerator<string> {
  let parts: string[] = [];
  let size = 0;
  const push = (part: string) => {
    parts.push(part);
    size += part.length;
    return size >= EXPORT_FLUSH;
  };
  const take = () => {
    const text = parts.join('');
    parts = [];
    size = 0;
    return text;
  };
  if (plan.format === 'json') push('[');
  if (plan.format === 'csv') push(csvLine(csvHeader(plan.kind), plan.delimiter));
  let index = 0;
  for await (const rows of batches) {
    for (const r of rows) {
      const writer = rowWriter(plan, r, index++);
      if (push(writer.start)) yield take();
      if (r.contentPieces) {
        for await (const read of r.contentPieces())
          for (const piece of textPieces(read)) if (push(writer.write(piece))) yield take();
      } else for (const piece of textPieces(r.content ?? '')) if (push(writer.write(piece))) yield take();
      for (const part of writer.end()) if (push(part)) yield take();
    }
  }
  if (plan.format === 'json') push(index ? '\n]\n' : ']\n');
  if (size) yield take();
}
