/** The llm_chat_responses table: the answers of LLM prompt steps (and of their reruns), oldest first. */
import type { Knex } from 'knex';

export interface ChatResponseRow {
  id: number;
  step_id: number | null;
  node_id: number;
  document_id: number | null;
  prompt: string;
  prompt_editor_state: string | null;
  response: string;
  created_date: string | Date;
}

const COLUMNS = [
  'id',
  'step_id',
  'node_id',
  'document_id',
  'prompt',
  'prompt_editor_state',
  'response',
  'created_date',
];

export async function chatResponseById(knex: Knex, id: number): Promise<ChatResponseRow | undefined> {
  return knex('llm_chat_responses').where('id', id).first(COLUMNS);
}

/** The document's chat responses, oldest first. */
export async function chatResponsesOfDocument(knex: Knex, documentId: number): Promise<ChatResponseRow[]> {
  return knex('llm_chat_responses').where('document_id', documentId).orderBy('id', 'asc').select(COLUMNS);
}

/** The responses of the document's steps with their step's node, oldest first (the last one of a node wins). */
export async function stepResponsesOfDocument(
  knex: Knex,
  documentId: number,
): Promise<{ node_id: number; response: string | null }[]> {
  return knex('llm_chat_responses as r')
    .join('steps as s', 's.id', 'r.step_id')
    .where('s.document_id', documentId)
    .orderBy('r.id', 'asc')
    .select('s.node_id', 'r.response');
}

/** Stores one answer of a step (`knex` may be a transaction); its id. */
export async function insertChatResponse(
  knex: Knex,
  row: {
    stepId: number | null;
    nodeId: number;
    documentId: number | null;
    batchId?: number | null;
    prompt: string;
    promptEditorState: string | null;
    response: string;
  },
): Promise<number> {
  const [inserted] = await knex('llm_chat_responses')
    .insert({
      step_id: row.stepId,
      node_id: row.nodeId,
      document_id: row.documentId,
      batch_id: row.batchId ?? null,
      prompt: row.prompt,
      prompt_editor_state: row.promptEditorState,
      response: row.response,
    })
    .returning('id');
  return Number(inserted.id);
}
