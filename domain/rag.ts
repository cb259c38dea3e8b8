/**
 * RAG rules and scoring (issue 16 section 3; spec 3 sections 5 and 9), pure and shared by the API, the worker
 * and the forms:
 * - the template rule (non-empty, both RAG wildcards, else 'soaApp.ragTemplate.creatorModal.editorValidationError')
 *   and the default template;
 * - BM25 (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5))): the SQL of db/queries/rag.ts computes the
 *   same sum, with the idf of each query term computed here;
 * - which query terms pick the lexical candidates: the rarest first, until their postings pass a budget
 *   (a term in most chunks adds little to BM25 but would make every chunk a candidate);
 * - cosine similarity, reciprocal rank fusion (k 60);
 * - the answer: scores normalised to 0..1 by the best of the answer (BM25 / best BM25 on the lexical path,
 *   RRF / best RRF when fused), chunks under the similarity threshold dropped, then the topK best CHUNKS
 *   (topK counts chunks, so the prompt stays bounded), grouped by document in the order of their best chunk;
 * - the text `${process.rag.documents}` renders to.
 */
import { SETTINGS_LIMITS } from './node-settings';
import { rangeRule, temperatureRule, type FieldViolation } from './node-settings-rules';
import { RAG_SIMILARITY, RAG_TOP_K, type RagChunk, type RagMatchedDocument } from './rag-types';
import type { Violation } from './validation';
import { RAG_DOCUMENTS_WILDCARD, RAG_INPUT_WILDCARD } from './wildcards';

export const RAG_TEMPLATE_ERROR = 'soaApp.ragTemplate.creatorModal.editorValidationError';

export const DEFAULT_RAG_TEMPLATE = `Answer the question using only the documents below. If they do not contain the answer, say so.

Question:
${RAG_INPUT_WILDCARD}

Documents:
${RAG_DOCUMENTS_WILDCARD}`;

export function ragTemplateRule(template: string | null | undefined): Violation | null {
  const t = template ?? '';
  if (!t.trim() || !t.includes(RAG_INPUT_WILDCARD) || !t.includes(RAG_DOCUMENTS_WILDCARD))
    return { code: 'Pattern', key: RAG_TEMPLATE_ERROR };
  return null;
}

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const RRF_K = 60;
/** Postings (sum of df) the candidate terms of a lexical query may reach before commoner terms are left out. */
export const CANDIDATE_POSTINGS = 20_000;

export const bm25Idf = (chunkCount: number, df: number): number =>
  Math.log(1 + (chunkCount - df + 0.5) / (df + 0.5));

/** One term's BM25 contribution to a chunk (`tf` occurrences in a chunk of `length` words). */
export function bm25Term(tf: number, length: number, avgLength: number, idf: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / (avgLength || 1));
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}

export interface TermStat {
  lexeme: string;
  df: number;
}

/** Query terms that select the candidates: rarest first while their postings fit the budget (one at least). */
export function candidateTerms(terms: readonly TermStat[], budget = CANDIDATE_POSTINGS): string[] {
  const sorted = [...terms]
    .filter((t) => t.df > 0)
    .sort((a, b) => a.df - b.df || (a.lexeme < b.lexeme ? -1 : 1));
  const picked: string[] = [];
  let postings = 0;
  for (const t of sorted) {
    if (picked.length && postings + t.df > budget) break;
    picked.push(t.lexeme);
    postings += t.df;
  }
  return picked;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Reciprocal rank fusion of ranked id lists: id to Σ 1 / (k + rank), rank from 1; best first. */
export function rrfFuse(lists: readonly (readonly number[])[], k = RRF_K): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
}

export interface ScoredChunk extends Omit<RagChunk, 'score'> {
  docId: number;
  filename: string;
  /** raw score (BM25 or RRF), higher is better */
  raw: number;
}

/**
 * The answer's documents: scores normalised by the best, those under the threshold dropped, the topK best
 * chunks kept and grouped by document (documents in the order of their best chunk, chunks best first).
 */
export function selectMatches(
  chunks: readonly ScoredChunk[],
  topK: number,
  similarityThreshold: number,
): RagMatchedDocument[] {
  const best = chunks.reduce((m, c) => Math.max(m, c.raw), 0);
  if (best <= 0) return [];
  const kept = chunks
    .map((c) => ({ c, score: Math.min(1, c.raw / best) }))
    // a little slack so that a threshold of 1 keeps the best whatever the float rounding
    .filter((x) => x.score + 1e-9 >= similarityThreshold)
    .sort((a, b) => b.score - a.score || a.c.id - b.c.id)
    .slice(0, topK);
  const byDoc = new Map<number, RagMatchedDocument>();
  for (const { c, score } of kept) {
    let doc = byDoc.get(c.docId);
    if (!doc) byDoc.set(c.docId, (doc = { docId: c.docId, filename: c.filename, chunks: [] }));
    doc.chunks.push({ id: c.id, text: c.text, startOffset: c.startOffset, endOffset: c.endOffset, score });
  }
  return [...byDoc.values()];
}

/** `${process.rag.documents}`: each matched document with its id, filename and chunks. */
export function ragDocumentsText(docs: readonly RagMatchedDocument[]): string {
  if (!docs.length) return '(no matching documents)';
  return docs
    .map(
      (d) =>
        `Document ${d.docId} (${d.filename}):\n` +
        d.chunks.map((c) => `[${c.startOffset}-${c.endOffset}] ${c.text}`).join('\n\n'),
    )
    .join('\n\n---\n\n');
}

const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };

/**
 * The RAG query's field rules (spec 3 sections 5 and 9): llmModel required, topK an integer 1..10,
 * similarityThreshold 0..1, temperature 0..2; absent numbers take the defaults (topK 4, threshold 0,
 * temperature 1) through ragQueryDefaults.
 */
export function ragQueryViolations(q: {
  llmModel?: { id?: number | null } | null;
  topK: number;
  similarityThreshold: number;
  temperature: number;
}): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, v: Violation | null) => v && out.push({ field, violation: v });
  add('llmModel', q.llmModel?.id ? null : REQUIRED);
  add('topK', rangeRule(q.topK, RAG_TOP_K.min, RAG_TOP_K.max, true));
  add('similarityThreshold', rangeRule(q.similarityThreshold, RAG_SIMILARITY.min, RAG_SIMILARITY.max));
  return [...out, ...temperatureRule(q.temperature)];
}

export const ragQueryDefaults = (q: {
  topK?: number | null;
  similarityThreshold?: number | null;
  temperature?: number | null;
}) => ({
  topK: q.topK ?? RAG_TOP_K.default,
  similarityThreshold: q.similarityThreshold ?? RAG_SIMILARITY.default,
  temperature: q.temperature ?? SETTINGS_LIMITS.temperature.default,
});
