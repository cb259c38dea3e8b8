/**
 * RAG activities (issue 16 section 3):
 * - `indexDocumentForRag`: under a row lock of the document, replaces its chunks by those of its current text
 *   (the process's splitter) when it is DONE in a process with RAG on, else removes them; then, with an
 *   embeddings model, gives the new chunks their vectors (outside the transaction: a network call). Idempotent:
 *   a retry or a second run writes the same chunks.
 * - `indexProcessForRag`: every DONE document of the process (RAG on), or removes all its chunks (RAG off).
 * - `ragQuery`: retrieval, the process's template (or the default) rendered with the query and the matched
 *   chunks, the chat completion with the chosen model, secret and temperature (the LLM prompt node's call).
 */
import { heartbeat } from '@temporalio/activity';
import type { Knex } from 'knex';
import { contentOf } from '../../db/queries/document-contents';
import {
  chunksWithoutVector,
  deleteChunksOf,
  deleteChunksOfProcess,
  doneDocumentIds,
  lockIndexTarget,
  replaceChunks,
  storeVectors,
} from '../../db/queries/rag';
import { DEFAULT_RAG_TEMPLATE, ragDocumentsText } from '../../domain/rag';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { DEFAULT_LLM_BASE_URL } from '../../server/config';
import type {
  RagIndexInput,
  RagIndexResult,
  RagQueryInput,
  RagQueryResult,
} from '../../workflows/rag-contract';
import { RAG_QUERY_TIMEOUT_MS } from '../../workflows/rag-contract';
import { callLlm, modelAndKey } from '../actions/llm-prompt';
import { embedTexts, type EmbeddingsConfig } from './embeddings';
import { EmbeddingsFailed, retrieve } from './retrieve';
import { processById } from '../../db/queries/processes';
import { ragTemplateOf } from '../../db/queries/rag-templates';

export interface RagDeps {
  knex: Knex;
  llmBaseUrl?: string;
  /** EMBEDDINGS_MODEL and its endpoint; lexical retrieval only when absent. */
  embeddings?: EmbeddingsConfig | null;
}

const tryHeartbeat = (details?: unknown) => {
  try {
    heartbeat(details);
  } catch {
    // called outside an activity (tests, bench)
  }
};

export async function indexDocument(deps: RagDeps, documentId: number): Promise<RagIndexResult> {
  const { knex } = deps;
  const chunks = await knex.transaction(async (trx) => {
    const target = await lockIndexTarget(trx, documentId);
    if (!target) return null;
    if (!target.ragEnabled || target.status !== 'DONE') {
      await deleteChunksOf(trx, documentId);
      return null;
    }
    const content = (await contentOf(trx, documentId))?.content ?? '';
    return replaceChunks(trx, target, content);
  });
  if (chunks === null) return { documents: 0, chunks: 0, vectors: 0 };
  let vectors = 0;
  const cfg = deps.embeddings;
  if (cfg) {
    const missing = await chunksWithoutVector(knex, documentId, cfg.model);
    for (let i = 0; i < missing.length; i += 256) {
      const part = missing.slice(i, i + 256);
      const embedded = await embedTexts(
        cfg,
        part.map((c) => c.text),
      );
      await storeVectors(
        knex,
        cfg.model,
        part.map((c, j) => ({ chunkId: c.id, processId: c.processId, vector: embedded[j] })),
      );
      vectors += part.length;
      tryHeartbeat({ documentId, vectors });
    }
  }
  return { documents: 1, chunks, vectors };
}

export async function indexProcess(deps: RagDeps, processId: number): Promise<RagIndexResult> {
  const { knex } = deps;
  const process = await processById(knex, processId);
  if (!process?.isRagEnabled) {
    await deleteChunksOfProcess(knex, processId);
    return { documents: 0, chunks: 0, vectors: 0 };
  }
  const total: RagIndexResult = { documents: 0, chunks: 0, vectors: 0 };
  for (const id of await doneDocumentIds(knex, processId)) {
    const r = await indexDocument(deps, id);
    total.documents += r.documents;
    total.chunks += r.chunks;
    total.vectors += r.vectors;
    tryHeartbeat(total);
  }
  return total;
}

export async function runRagQuery(deps: RagDeps, input: RagQueryInput): Promise<RagQueryResult> {
  const { knex } = deps;
  const process = await processById(knex, input.processId);
  if (!process) return { invalid: `Process ${input.processId} no longer exists` };
  const found = await modelAndKey(knex, input.processId, input.llmModelId, input.secretId, 'the RAG query');
  if (typeof found === 'string') return { invalid: found };
  const template = await ragTemplateOf(knex, input.processId);
  const stored = template?.active ? template : undefined;
  let matchedDocuments;
  try {
    matchedDocuments = await retrieve(knex, { ...input, embeddings: deps.embeddings });
  } catch (err) {
    if (err instanceof EmbeddingsFailed) return { failed: err.message };
    throw err;
  }
  let prompt: string;
  try {
    prompt = renderTemplate(stored?.template ?? DEFAULT_RAG_TEMPLATE, {
      process: { id: Number(process.id), name: process.name },
      now: new Date(),
      rag: { input: input.query, documents: ragDocumentsText(matchedDocuments) },
    });
  } catch (err) {
    if (err instanceof WildcardRenderError)
      return { invalid: `The RAG template does not render: ${err.message}` };
    throw err;
  }
  let llmResponse: string;
  try {
    llmResponse = await callLlm({
      apiKey: found.apiKey,
      model: found.model,
      temperature: input.temperature,
      prompt,
      baseUrl: deps.llmBaseUrl ?? DEFAULT_LLM_BASE_URL,
      timeoutMs: RAG_QUERY_TIMEOUT_MS,
    });
  } catch (err) {
    return { failed: `The LLM API failed: ${(err as Error).message}` };
  }
  return { response: { llmResponse, matchedDocuments } };
}

export function createRagActivities(deps: RagDeps) {
  return {
    async indexForRag(input: RagIndexInput): Promise<RagIndexResult> {
      return 'documentId' in input
        ? indexDocument(deps, input.documentId)
        : indexProcess(deps, input.processId);
    },
    async ragQuery(input: RagQueryInput): Promise<RagQueryResult> {
      return runRagQuery(deps, input);
    },
  };
}
