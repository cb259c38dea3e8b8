/**
 * What external models and training endpoints get from us, shared by the executor (external-model.ts) and
 * training (activities/training.ts): the node's labels, a document's text (for a transcript: built from its
 * tokens, tokens joined by one space and utterances by a line break as domain/transcript.ts transcriptText,
 * with each token's offsets in it), and a JSON POST to a user-configured URL through the net guard.
 */
import type { Knex } from 'knex';
import { documentWithContent } from '../../db/queries/documents';
import { modelLabelRows } from '../../db/queries/labels';
import { transcriptTokens } from '../../db/queries/utterances';
import { requestAt, type GuardedResponse } from '../guarded-http';
import { resolveOutbound } from '../../server/net-guard';

/** Largest answer read from a custom model or a training endpoint. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export type ModelKind = 'CLF' | 'SPAN';

/** A classifier type or NER tag type of the node, as models see it. */
export interface ModelLabel {
  id: number;
  name: string;
  description: string | null;
}

/** The node's labels: classifier types (CLF) or enabled NER tag types (SPAN, with the path as description). */
export async function loadLabels(knex: Knex, nodeId: number, kind: ModelKind): Promise<ModelLabel[]> {
  return (await modelLabelRows(knex, nodeId, kind)).map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description && r.description !== r.name ? r.description : null,
  }));
}

export interface TextToken {
  id: number;
  utteranceId: number;
  /** UTF-16 offsets of the token in ModelText.content, end exclusive. */
  start: number;
  end: number;
  tsStart: number | null;
  tsEnd: number | null;
}

/** The text of a document as models get it; tokens (with their offsets in it) for a transcript. */
export interface ModelText {
  filename: string;
  content: string;
  tokens: TextToken[] | null;
}

export async function loadModelText(knex: Knex, documentId: number): Promise<ModelText | null> {
  const doc = await documentWithContent(knex, documentId);
  if (!doc) return null;
  const rows = await transcriptTokens(knex, documentId);
  if (!rows.length && doc.documentType !== 'AUDIOFILE')
    return { filename: doc.filename, content: doc.content ?? '', tokens: null };
  let content = '';
  const tokens: TextToken[] = [];
  rows.forEach((r, i) => {
    if (i > 0) content += r.utteranceId === rows[i - 1].utteranceId ? ' ' : '\n';
    tokens.push({
      id: Number(r.id),
      utteranceId: Number(r.utteranceId),
      start: content.length,
      end: content.length + r.value.length,
      tsStart: r.tsStart,
      tsEnd: r.tsEnd,
    });
    content += r.value;
  });
  return { filename: doc.filename, content, tokens };
}

/** The status and the first maxBytes of the answer (truncated when longer). */
export type JsonPostResult = GuardedResponse;

/**
 * POSTs JSON to a user-configured http(s) URL at the address the net guard checked (Host header and TLS
 * server name keep the original name; no redirects). Throws OutboundRefused for a refused address and an
 * Error for network failures and timeouts.
 */
export async function postJson(
  url: URL,
  payload: unknown,
  opts: { allowlist: readonly string[]; timeoutMs: number; maxBytes?: number },
): Promise<JsonPostResult> {
  const { address } = await resolveOutbound(url.hostname, opts.allowlist);
  const maxBytes = opts.maxBytes ?? MAX_ANSWER_BYTES;
  return requestAt(address, {
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(payload),
    timeoutMs: opts.timeoutMs,
    maxBytes,
  });
}

/** A user-configured URL, or the reason it cannot be used. */
export function httpUrl(raw: string | null | undefined, what: string): URL | string {
  if (!raw?.trim()) return `The ${what} is empty`;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return `The ${what} "${raw}" is not a valid URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `The ${what} must use http or https`;
  return url;
}
