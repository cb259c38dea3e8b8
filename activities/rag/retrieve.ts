/**
 * Retrieval over a process's chunks (issue 16 section 3): BM25 in PostgreSQL (db/queries/rag.ts) always; with
 * an embeddings model also a dense list (cosine of the query's vector against the lexical candidates' vectors
 * and the process's newest DENSE_SCAN_LIMIT vectors, scanned here: there is no vector index without pgvector),
 * the two fused by reciprocal rank. Scores are then normalised by the best and cut by threshold and topK
 * (domain/rag.ts selectMatches).
 */
import type { Knex } from 'knex';
import { cosine, rrfFuse, selectMatches, type ScoredChunk } from '../../domain/rag';
import type { RagMatchedDocument } from '../../domain/rag-types';
import { chunksByIds, lexicalSearch, newestVectors, vectorsOf } from '../../db/queries/rag';
import { embedTexts, type EmbeddingsConfig } from './embeddings';

/** Lexical candidates ranked by BM25 (and re-ranked by cosine on the dense path). */
export const LEXICAL_CANDIDATES = 100;
/** Vectors of a process compared to the query besides the lexical candidates' (the newest chunks). */
export const DENSE_SCAN_LIMIT = 10_000;
/** Length of the dense list that is fused. */
const DENSE_LIST = 100;

/** The embeddings endpoint could not embed the query. */
export class EmbeddingsFailed extends Error {
  constructor(detail: string) {
    super(`The embeddings API failed: ${detail}`);
    this.name = 'EmbeddingsFailed';
  }
}

export interface RetrieveOptions {
  processId: number;
  query: string;
  topK: number;
  similarityThreshold: number;
  embeddings?: EmbeddingsConfig | null;
}

/** Ranked chunk ids with raw scores (BM25, or RRF when fused), best first. */
export async function rankChunks(knex: Knex, o: RetrieveOptions): Promise<{ id: number; raw: number }[]> {
  const lexical = await lexicalSearch(knex, o.processId, o.query, LEXICAL_CANDIDATES);
  if (!o.embeddings) return lexical;
  let queryVector: number[];
  try {
    [queryVector] = await embedTexts(o.embeddings, [o.query]);
  } catch (err) {
    throw new EmbeddingsFailed((err as Error).message);
  }
  const lexicalIds = lexical.map((l) => l.id);
  const [own, scanned] = await Promise.all([
    vectorsOf(knex, o.embeddings.model, lexicalIds),
    newestVectors(knex, o.processId, o.embeddings.model, DENSE_SCAN_LIMIT),
  ]);
  const similarity = new Map<number, number>();
  for (const v of [...own, ...scanned]) similarity.set(v.id, cosine(queryVector, v.vector));
  const dense = [...similarity]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, DENSE_LIST)
    .map(([id]) => id);
  return rrfFuse([lexicalIds, dense]).map((f) => ({ id: f.id, raw: f.score }));
}

export async function retrieve(knex: Knex, o: RetrieveOptions): Promise<RagMatchedDocument[]> {
  const ranked = await rankChunks(knex, o);
  const rawOf = new Map(ranked.map((r) => [r.id, r.raw]));
  const rows = await chunksByIds(
    knex,
    ranked.map((r) => r.id),
  );
  const scored: ScoredChunk[] = rows.map((r) => ({ ...r, raw: rawOf.get(r.id) ?? 0 }));
  return selectMatches(scored, o.topK, o.similarityThreshold);
}
