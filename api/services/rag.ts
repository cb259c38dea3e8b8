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

const log = getLogger('api.rag');

export const ragTemplateDefaults = (): RagTemplateDefaults => ({
  template: DEFAULT_RAG_TEMPLATE,
  templateEditorState: null,
});

interface TemplateRow {
  id: string | number;
  process_id: string | number;
  template: string;
  template_editor_state: string | null;
  active: boolean;
}

const toDTO = (r: TemplateRow): RagTemplateDTO => ({
  id: Number(r.id),
  processId: Number(r.process_id),
  template: r.template,
  templateEditorState: r.template_editor_state,
  active: r.active,
});

/** The process's stored template, else the default (id null). */
export async function templateOf(knex: Knex, processId: number): Promise<RagTemplateDTO> {
  const row = await knex('rag_templates').where('process_id', processId).first();
  return row ? toDTO(row) : { id: null, processId, ...ragTemplateDefaults(), active: true };
}

/** The process's template becomes this one (one per process: the id in the body does not matter). */
export async function saveTemplate(
  knex: Knex,
  t: { processId: number; template: string; templateEditorState: string | null; active: boolean },
): Promise<RagTemplateDTO> {
  const [row] = await knex('rag_templates')
    .insert({
      process_id: t.processId,
      template: t.template,
      template_editor_state: t.templateEditorState,
      active: t.active,
    })
    .onConflict('process_id')
    .merge(['template', 'template_editor_state', 'active'])
    .returning('*');
  return toDTO(row);
}

export async function templateById(knex: Knex, id: number): Promise<RagTemplateDTO | null> {
  const row = await knex('rag_templates').where('id', id).first();
  return row ? toDTO(row) : null;
}

export async function deleteTemplate(knex: Knex, id: number): Promise<void> {
  await knex('rag_templates').where('id', id).del();
}

/** Turns RAG on or off and sets the splitter; answers whether the indexed chunks must be rebuilt. */
export async function setProcessRag(
  knex: Knex,
  processId: number,
  isRagEnabled: boolean,
  splitterId: number | null,
): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const before = await trx('processes')
      .where('id', processId)
      .forUpdate()
      .first('is_rag_enabled', 'rag_text_splitter_id');
    await trx('processes')
      .where('id', processId)
      .update({ is_rag_enabled: isRagEnabled, rag_text_splitter_id: splitterId });
    const beforeSplitter = before.rag_text_splitter_id === null ? null : Number(before.rag_text_splitter_id);
    return before.is_rag_enabled !== isRagEnabled || (isRagEnabled && beforeSplitter !== splitterId);
  });
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
  const row = await knex('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .where('d.id', documentId)
    .first('d.status', 'p.is_rag_enabled');
  return !!row && row.status === 'DONE' && !!row.is_rag_enabled;
}
