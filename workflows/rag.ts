/**
 * The RAG workflows (workflows/rag-contract.ts): indexing a document or a process, and a RAG query; one
 * activity each on the worker. Indexing is retried (it is idempotent); a query is answered once (the caller
 * waits and may ask again).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  RAG_INDEX_ACTIVITY_OPTIONS,
  type RagIndexInput,
  type RagIndexResult,
  type RagQueryInput,
  type RagQueryResult,
} from './rag-contract';

const indexing = proxyActivities<Activities>(RAG_INDEX_ACTIVITY_OPTIONS);

const querying = proxyActivities<Activities>({
  // the chat API's 300 s and the retrieval
  startToCloseTimeout: '6 minutes',
  retry: { maximumAttempts: 1 },
});

export async function ragIndexWorkflow(input: RagIndexInput): Promise<RagIndexResult> {
  return indexing.indexForRag(input);
}

export async function ragQueryWorkflow(input: RagQueryInput): Promise<RagQueryResult> {
  return querying.ragQuery(input);
}
