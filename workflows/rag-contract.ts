/**
 * The contract of the RAG workflows (issue 16 section 3): indexing a document or a whole process (started by
 * the document workflow at DONE, by the API after a content edit of a DONE document and when RAG is turned on
 * or its splitter changed) and a RAG query (started and awaited by `POST api/rag`). Imported by the API, the
 * workflows, the activities and the tests.
 */
import type { RagResponse } from '../domain/rag-types';

export const RAG_INDEX_WORKFLOW = 'ragIndexWorkflow';
export const RAG_QUERY_WORKFLOW = 'ragQueryWorkflow';
export const ragIndexWorkflowId = (what: 'document' | 'process', id: number, nonce: string): string =>
  `rag-index-${what}-${id}-${nonce}`;
export const ragQueryWorkflowId = (processId: number, nonce: string): string =>
  `rag-query-${processId}-${nonce}`;

/** How long the chat API may take for a RAG answer (the route waits a little longer). */
export const RAG_QUERY_TIMEOUT_MS = 300_000;

/** Activity options of indexing (idempotent, so retried), for the RAG workflow and the document workflow. */
export const RAG_INDEX_ACTIVITY_OPTIONS = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 5 },
} as const;

export type RagIndexInput = { documentId: number } | { processId: number };

export interface RagIndexResult {
  /** documents whose chunks were written (0 when RAG is off or the document is not DONE) */
  documents: number;
  chunks: number;
  /** chunks given a dense vector (0 without EMBEDDINGS_MODEL) */
  vectors: number;
}

export interface RagQueryInput {
  processId: number;
  query: string;
  topK: number;
  similarityThreshold: number;
  temperature: number;
  llmModelId: number;
  secretId: number | null;
}

/** The answer, or why there is none: `invalid` (400: unusable model or secret, bad template), `failed` (502). */
export type RagQueryResult = { response: RagResponse } | { invalid: string } | { failed: string };
