/** The rag_templates table: a process's RAG prompt template (one per process). */
import type { Knex } from 'knex';
import type { RagTemplateDTO } from '../../domain/rag-types';

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

/** The process's stored template, if it has one. */
export async function ragTemplateOf(knex: Knex, processId: number): Promise<RagTemplateDTO | undefined> {
  const row = await knex('rag_templates').where('process_id', processId).first();
  return row ? toDTO(row) : undefined;
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
