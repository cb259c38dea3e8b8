/**
 * Rendering of the wildcards of spec 3 section 9 (the catalogue and availability are in wildcards.ts):
 * replaces every `${...}` token of a template with the value the data give it. INDIVIDUAL rendering: one
 * document's data (trigger ALWAYS); AGGREGATED rendering (triggers CRON and THRESHOLD): the documents
 * collected since the node's last execution, each document or node wildcard rendering the values of every
 * document joined (short values by ", ", long texts by a blank line); both with the UNIVERSAL process and
 * utility values. A token that is not a
 * wildcard, or one whose data this rendering does not have (a document wildcard without a document), is an
 * error, never a silent blank: the node API refuses such templates on save, so reaching one here means the
 * graph changed since.
 */

/** Classifier labels of one node selected for the document. */
export interface SelectedClassifierTypes {
  /** Ids and names of the selected classifier types, in id order. */
  selected: readonly { id: number; name: string }[];
}

/** What earlier nodes produced for the document, by node id (absent fields render as empty text). */
export interface NodeResultData {
  sendRequestBody?: string | null;
  driveFileId?: string | null;
  driveFileUrl?: string | null;
  sftpFileAddress?: string | null;
  llmResponse?: string | null;
  classifierTypes?: SelectedClassifierTypes;
}

export interface SpanTagData {
  /** The NER tag type's name. */
  label: string;
  /** The tagged text (the span of the content, or the tokens' values). */
  text: string;
}

export interface DocumentData {
  id: number;
  filename: string;
  content: string;
  /** Names of the document's classifier tags. */
  clfTags: readonly string[];
  spanTags: readonly SpanTagData[];
}

export interface AggregateEntry {
  document: DocumentData;
  nodes?: Readonly<Record<number, NodeResultData>>;
}

export interface RenderData {
  process: { id: number; name: string };
  /** The document of an INDIVIDUAL rendering. */
  document?: DocumentData;
  nodes?: Readonly<Record<number, NodeResultData>>;
  /** AGGREGATED rendering: the collected documents, oldest first, each with its nodes' results. */
  aggregate?: readonly AggregateEntry[];
  /** The render time (util wildcards); UTC. */
  now: Date;
  /** A RAG template's rendering: the query and the matched documents' text. */
  rag?: { input: string; documents: string };
}

/** How inserted values are escaped for the template's target (a URL, HTML, a header, plain text). */
export type RenderEscape = 'none' | 'url' | 'html' | 'header';

export class WildcardRenderError extends Error {
  constructor(public readonly tokens: readonly string[]) {
    super(`Unknown or unavailable wildcards: ${tokens.join(', ')}`);
    this.name = 'WildcardRenderError';
  }
}

const TOKEN = /\$\{([^{}\s]*)\}/g;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const isoDate = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const isoDateTime = (d: Date) =>
  `${isoDate(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

function documentValue(field: string, doc: DocumentData): string | undefined {
  switch (field) {
    case 'id':
      return String(doc.id);
    case 'filename':
      return doc.filename;
    case 'content':
      return doc.content;
    case 'clfTags':
      return doc.clfTags.join(', ');
    case 'spanTags':
      return doc.spanTags.map((t) => `${t.label}: ${t.text}`).join('\n');
    default:
      return undefined;
  }
}

/** `node.<id>.<path>`: the value of a per-node wildcard, '' when the node left no result for the document. */
function nodeValue(path: string, nodes: RenderData['nodes']): string | undefined {
  const m = /^(\d+)\.(.+)$/.exec(path);
  if (!m) return undefined;
  const r = nodes?.[Number(m[1])] ?? {};
  const rest = m[2];
  switch (rest) {
    case 'sendrequestresult.body':
      return r.sendRequestBody ?? '';
    case 'googledriveresult.fileid':
      return r.driveFileId ?? '';
    case 'googledriveresult.url':
      return r.driveFileUrl ?? '';
    case 'sftpresult.fileaddress':
      return r.sftpFileAddress ?? '';
    case 'llmresponse':
      return r.llmResponse ?? '';
    case 'clftagtypes.selected':
      return (r.classifierTypes?.selected ?? []).map((t) => t.name).join(', ');
  }
  const selected = /^clftagtypes\.(\d+)\.isselected$/.exec(rest);
  if (selected) {
    const typeId = Number(selected[1]);
    return String((r.classifierTypes?.selected ?? []).some((t) => t.id === typeId));
  }
  return undefined;
}

const EMPTY_DOCUMENT: DocumentData = { id: 0, filename: '', content: '', clfTags: [], spanTags: [] };
/** Values short enough to list on one line; the others are separated by a blank line. */
const SHORT = /^(id|filename|clfTags|\d+\.(googledriveresult\.fileid|clftagtypes\..+))$/;

/** The values of every collected document joined; undefined when the wildcard is unknown. */
function joined(
  tail: string,
  aggregate: readonly AggregateEntry[],
  value: (a: AggregateEntry) => string | undefined,
): string | undefined {
  // Known even when nothing was collected: ask an empty document.
  if (value({ document: EMPTY_DOCUMENT }) === undefined) return undefined;
  return aggregate.map((a) => value(a) ?? '').join(SHORT.test(tail) ? ', ' : '\n\n');
}

/** The value of one token's inside (`document.id`), or undefined when it is unknown or unavailable. */
export function wildcardValue(inner: string, data: RenderData): string | undefined {
  const dot = inner.indexOf('.');
  const head = dot < 0 ? inner : inner.slice(0, dot);
  const tail = dot < 0 ? '' : inner.slice(dot + 1);
  switch (head) {
    case 'document':
      if (data.document) return documentValue(tail, data.document);
      return data.aggregate
        ? joined(tail, data.aggregate, (a) => documentValue(tail, a.document))
        : undefined;
    case 'node':
      // Per-node results belong to documents (INDIVIDUAL or AGGREGATED mode).
      if (data.document) return nodeValue(tail, data.nodes);
      return data.aggregate ? joined(tail, data.aggregate, (a) => nodeValue(tail, a.nodes)) : undefined;
    case 'process':
      if (tail === 'id') return String(data.process.id);
      if (tail === 'name') return data.process.name;
      // process.rag.* belong to the RAG template, rendered by the RAG query
      if (tail === 'rag.input') return data.rag?.input;
      if (tail === 'rag.documents') return data.rag?.documents;
      return undefined;
    case 'util':
      if (tail === 'datetime') return isoDateTime(data.now);
      if (tail === 'date') return isoDate(data.now);
      if (tail === 'timestamp') return String(data.now.getTime());
      return undefined;
    default:
      return undefined;
  }
}

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeValue(value: string, escape: RenderEscape): string {
  switch (escape) {
    case 'url':
      return encodeURIComponent(value);
    case 'html':
      return value.replace(/[&<>"']/g, (c) => HTML[c]);
    case 'header':
      // A value may not start a new header line.
      return value.replace(/[\r\n]+/g, ' ');
    default:
      return value;
  }
}

/** Every token of the template that has no value in this rendering (empty: the template renders). */
export function unrenderableWildcards(template: string | null | undefined, data: RenderData): string[] {
  const bad = new Set<string>();
  for (const m of (template ?? '').matchAll(TOKEN))
    if (wildcardValue(m[1], data) === undefined) bad.add(m[0]);
  return [...bad];
}

/**
 * The template with every wildcard replaced by its (escaped) value. Throws WildcardRenderError naming every
 * unknown or unavailable token; text that is not a token is kept as it is.
 */
export function renderTemplate(
  template: string | null | undefined,
  data: RenderData,
  escape: RenderEscape = 'none',
): string {
  const bad = unrenderableWildcards(template, data);
  if (bad.length) throw new WildcardRenderError(bad);
  return (template ?? '').replace(TOKEN, (_t, inner: string) =>
    escapeValue(wildcardValue(inner, data)!, escape),
  );
}
