/**
 * RAG on the API side (issue 16 section 3): the processes' templates (stored or the default), the RAG switch
 * of a process, and starting the worker's indexing (workflows/rag-contract.ts) without waiting for it.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { DEFAULT_RAG_TEMPLATE } from '../../domain/rag';
import type { RagTemplateDTO, RagTemplateDefaults } from '../../domain/rag-types';
import { getLogger } from '../../server/logger';
import { RAG_INDEX_WORKFLOW, ragIndexWorkflowId, type RagIndexInput } from '../../workflows/rag-contract';
import type { TemporalGateway } from '../temporal';
import { ragTemplateOf } from '../../db/queries/rag-templates';
import { replaceProcessRag } from '../../db/queries/processes';
import { documentRagState } from '../../db/queries/documents';

// The templates' reads and writes are their table's (db/queries/rag-templates.ts); the routes reach them here.
export { deleteTemplate, saveTemplate, templateById } from '../../db/queries/rag-templates';

const log = getLogger('api.rag');

export const ragTemplateDefaults = (): RagTemplateDefaults => ({
  template: DEFAULT_RAG_TEMPLATE,
  templateEditorState: null,
});

/** The process's stored template, else the default (id null). */
export async function templateOf(knex: Knex, processId: number): Promise<RagTemplateDTO> {
  return (
    (await ragTemplateOf(knex, processId)) ?? { id: null, processId, ...ragTemplateDefaults(), active: true }
  );
}

/** Turns RAG on or off and sets the splitter; answers whether the indexed chunks must be rebuilt. */
export async function setProcessRag(
  knex: Knex,
  processId: number,
  isRagEnabled: boolean,
  splitterId: number | null,
): Promise<boolean> {
  const before = await replaceProcessRag(knex, processId, isRagEnabled, splitterId);
  return before.isRagEnabled !== isRagEnabled || (isRagEnabled && before.splitterId !== splitterId);
}

/**
 * Starts the indexing of a document or a process on the worker, not awaited. When Temporal cannot be reached
 * the failure is logged and the caller's change stands (the next DONE, edit or switch indexes again).
 */
export async function startRagIndex(
  temporal: TemporalGateway,
  taskQueue: string,
  input: RagIndexInput,
): Promise<void> {
  const [what, id] =
    'documentId' in input
      ? (['document', input.documentId] as const)
      : (['process', input.processId] as const);
  try {
    const client = await temporal.client();
    await client.workflow.start(RAG_INDEX_WORKFLOW, {
      taskQueue,
      workflowId: ragIndexWorkflowId(what, id, crypto.randomUUID()),
      args: [input],
    });
  } catch (err) {
    log.warn(`RAG indexing of ${what} ${id} not started`, { error: (err as Error).message });
  }
}

/** True when the document is DONE in a process with RAG on (its edits are indexed again). */
export async function indexedOnEdit(knex: Knex, documentId: number): Promise<boolean> {
  const row = await documentRagState(knex, documentId);
  return !!row && row.status === 'DONE' && row.ragEnabled;
}
