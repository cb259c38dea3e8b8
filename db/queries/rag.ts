/**
 * RAG storage (migration 024): a document's chunks replaced in one transaction (the statement triggers keep
 * the per-process term statistics in step), BM25 over a process's chunks computed in PostgreSQL from the
 * tsvector match and those statistics, and the dense vectors of chunks. Written by the worker's RAG activities,
 * read by them and by the bench.
 */
import type { Knex } from 'knex';
import { BM25_B, BM25_K1, bm25Idf, candidateTerms } from '../../domain/rag';
import { splitText, splitterKindOf, type TextChunk } from '../../domain/rag-split';

/** The text search configuration of the chunks' generated tsvector (migration 024). */
export const RAG_TS_CONFIG = 'simple';
/** Chunks inserted per statement: bounded pieces, the event loop is given back between them. */
const INSERT_BATCH = 500;
/** Distinct terms of a query that are looked at. */
const MAX_QUERY_TERMS = 64;

export interface IndexTarget {
  documentId: number;
  processId: number;
  status: string;
  ragEnabled: boolean;
  splitterKind: string | null;
}

/** The document (locked for the rest of the transaction) with its process's RAG settings. */
export async function lockIndexTarget(
  trx: Knex.Transaction,
  documentId: number,
): Promise<IndexTarget | null> {
  const row = await trx('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .leftJoin('external_document_splitters as s', 's.id', 'p.rag_text_splitter_id')
    .where('d.id', documentId)
    .forUpdate('d')
    .first(
      'd.id as documentId',
      'd.process_id as processId',
      'd.status',
      'p.is_rag_enabled as ragEnabled',
      's.kind as splitterKind',
    );
  return row ? { ...row, documentId: Number(row.documentId), processId: Number(row.processId) } : null;
}

export async function deleteChunksOf(trx: Knex, documentId: number): Promise<number> {
  return trx('rag_chunks').where('document_id', documentId).del();
}

/** Drops the index of the whole process (its RAG was switched off). */
export async function deleteChunksOfProcess(knex: Knex, processId: number): Promise<void> {
  await knex('rag_chunks').where('process_id', processId).del();
}

/**
 * Replaces the document's chunks by those of `content` split with the splitter kind; answers how many.
 * Run it in the transaction that locked the document (lockIndexTarget).
 */
export async function replaceChunks(
  trx: Knex.Transaction,
  target: IndexTarget,
  content: string,
): Promise<number> {
  await deleteChunksOf(trx, target.documentId);
  let batch: TextChunk[] = [];
  let count = 0;
  const flush = async () => {
    if (!batch.length) return;
    await trx('rag_chunks').insert(
      batch.map((c) => ({
        process_id: target.processId,
        document_id: target.documentId,
        ordinal: c.ordinal,
        start_offset: c.startOffset,
        end_offset: c.endOffset,
        text: c.text,
        token_length: c.tokenLength,
      })),
    );
    count += batch.length;
    batch = [];
  };
  for (const chunk of splitText(content, splitterKindOf(target.splitterKind))) {
    batch.push(chunk);
    if (batch.length >= INSERT_BATCH) await flush();
  }
  await flush();
  return count;
}

export interface ChunkRow {
  id: number;
  docId: number;
  filename: string;
  text: string;
  startOffset: number;
  endOffset: number;
}

export async function chunksByIds(knex: Knex, ids: readonly number[]): Promise<ChunkRow[]> {
  if (!ids.length) return [];
  const rows = await knex('rag_chunks as c')
    .join('documents as d', 'd.id', 'c.document_id')
    .whereIn('c.id', ids)
    .select(
      'c.id',
      'c.document_id as docId',
      'd.filename',
      'c.text',
      'c.start_offset as startOffset',
      'c.end_offset as endOffset',
    );
  return rows.map((r) => ({ ...r, id: Number(r.id), docId: Number(r.docId) }));
}

export interface ProcessStats {
  chunkCount: number;
  avgLength: number;
}

export async function processStats(knex: Knex, processId: number): Promise<ProcessStats> {
  const row = await knex('rag_process_stats')
    .where('process_id', processId)
    .first('chunk_count', 'total_length');
  const chunkCount = Number(row?.chunk_count ?? 0);
  return { chunkCount, avgLength: chunkCount ? Number(row.total_length) / chunkCount : 0 };
}

export async function termStats(
  knex: Knex,
  processId: number,
  lexemes: readonly string[],
): Promise<Map<string, number>> {
  if (!lexemes.length) return new Map();
  const rows = await knex('rag_term_stats')
    .where('process_id', processId)
    .whereIn('lexeme', lexemes)
    .select('lexeme', 'df');
  return new Map(rows.map((r) => [r.lexeme as string, Number(r.df)]));
}

/** The query's lexemes, as the chunks' tsvector makes them. */
export async function queryLexemes(knex: Knex, query: string): Promise<string[]> {
  const { rows } = await knex.raw(
    `select distinct l as lexeme from unnest(tsvector_to_array(to_tsvector(?::regconfig, ?))) as l limit ?`,
    [RAG_TS_CONFIG, query, MAX_QUERY_TERMS],
  );
  return rows.map((r: { lexeme: string }) => r.lexeme);
}

/**
 * The `limit` best chunks of the process for the query by BM25 (k1 1.2, b 0.75), best first. Candidates are
 * the chunks matching the rarer query terms (domain/rag.ts candidateTerms, through the GIN index); each is
 * scored over all the query's terms from its own term frequencies (positions in the tsvector).
 */
export async function lexicalSearch(
  knex: Knex,
  processId: number,
  query: string,
  limit: number,
): Promise<{ id: number; raw: number }[]> {
  const lexemes = await queryLexemes(knex, query);
  if (!lexemes.length) return [];
  const [stats, dfs] = await Promise.all([
    processStats(knex, processId),
    termStats(knex, processId, lexemes),
  ]);
  if (!stats.chunkCount) return [];
  const terms = lexemes.filter((l) => dfs.has(l)).map((lexeme) => ({ lexeme, df: dfs.get(lexeme)! }));
  if (!terms.length) return [];
  const picked = candidateTerms(terms);
  const idfs = terms.map((t) => bm25Idf(stats.chunkCount, t.df));
  const { rows } = await knex.raw(
    `with terms as (select * from unnest(?::text[], ?::float8[]) as t(lexeme, idf)),
     cand as (
       select c.id, c.token_length,
              ts_filter(setweight(setweight(c.tsv, 'D'), 'A', ?::text[]), '{a}') as hits
         from rag_chunks c
        where c.process_id = ?
          and c.tsv @@ (select string_agg(quote_literal(x), ' | ') from unnest(?::text[]) x)::tsquery
     )
     select cand.id,
            sum(t.idf * u.tf * (?::float8 + 1)
                / (u.tf + ?::float8 * (1 - ?::float8 + ?::float8 * cand.token_length / ?::float8))) as raw
       from cand
       cross join lateral (select h.lexeme, coalesce(array_length(h.positions, 1), 1) as tf
                             from unnest(cand.hits) h) u
       join terms t on t.lexeme = u.lexeme
      group by cand.id
      order by raw desc, cand.id
      limit ?`,
    [
      terms.map((t) => t.lexeme),
      idfs,
      terms.map((t) => t.lexeme),
      processId,
      picked,
      BM25_K1,
      BM25_K1,
      BM25_B,
      BM25_B,
      stats.avgLength || 1,
      limit,
    ],
  );
  return rows.map((r: { id: string; raw: number }) => ({ id: Number(r.id), raw: Number(r.raw) }));
}

// --- dense vectors ---

export async function chunksWithoutVector(
  knex: Knex,
  documentId: number,
  model: string,
): Promise<{ id: number; processId: number; text: string }[]> {
  const rows = await knex('rag_chunks as c')
    .leftJoin('rag_chunk_vectors as v', function () {
      this.on('v.chunk_id', 'c.id').andOn('v.model', knex.raw('?', [model]));
    })
    .where('c.document_id', documentId)
    .whereNull('v.chunk_id')
    .orderBy('c.ordinal')
    .select('c.id', 'c.process_id as processId', 'c.text');
  return rows.map((r) => ({ id: Number(r.id), processId: Number(r.processId), text: r.text }));
}

/** Stores vectors of chunks; a chunk replaced meanwhile (gone) is skipped. */
export async function storeVectors(
  knex: Knex,
  model: string,
  rows: readonly { chunkId: number; processId: number; vector: readonly number[] }[],
): Promise<void> {
  if (!rows.length) return;
  await knex.raw(
    `insert into rag_chunk_vectors (chunk_id, process_id, model, vector)
     select v.chunk_id, v.process_id, ?, v.vector::real[]
       from jsonb_to_recordset(?::jsonb) as v(chunk_id bigint, process_id bigint, vector float8[])
       join rag_chunks c on c.id = v.chunk_id
     on conflict (chunk_id) do update set model = excluded.model, vector = excluded.vector`,
    [
      model,
      JSON.stringify(rows.map((r) => ({ chunk_id: r.chunkId, process_id: r.processId, vector: r.vector }))),
    ],
  );
}

export async function vectorsOf(
  knex: Knex,
  model: string,
  ids: readonly number[],
): Promise<{ id: number; vector: number[] }[]> {
  if (!ids.length) return [];
  const rows = await knex('rag_chunk_vectors')
    .where('model', model)
    .whereIn('chunk_id', ids)
    .select('chunk_id', 'vector');
  return rows.map((r) => ({ id: Number(r.chunk_id), vector: r.vector as number[] }));
}

/** The newest `limit` vectors of the process (the bounded dense scan). */
export async function newestVectors(
  knex: Knex,
  processId: number,
  model: string,
  limit: number,
): Promise<{ id: number; vector: number[] }[]> {
  const rows = await knex('rag_chunk_vectors')
    .where({ process_id: processId, model })
    .orderBy('chunk_id', 'desc')
    .limit(limit)
    .select('chunk_id', 'vector');
  return rows.map((r) => ({ id: Number(r.chunk_id), vector: r.vector as number[] }));
}

/** DONE documents of a process (to index them all when RAG is turned on). */
export async function doneDocumentIds(knex: Knex, processId: number): Promise<number[]> {
  const rows = await knex('documents')
    .where({ process_id: processId, status: 'DONE' })
    .orderBy('id')
    .select('id');
  return rows.map((r) => Number(r.id));
}
