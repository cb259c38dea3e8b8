/** LLM models offered to LLM prompt nodes and LLM external configs (seeded; managed by system admins). */
import type { Knex } from 'knex';
import type { LlmModelDTO } from '../../domain/integration-types';
import { fieldErrors } from '../errors';

export interface LlmModelInput {
  name: string;
  modalities: string[];
}

const toDTO = (r: { id: number; name: string; modalities: string[] | null }): LlmModelDTO => ({
  id: r.id,
  name: r.name,
  modalities: r.modalities ?? [],
});

export async function listLlmModels(knex: Knex): Promise<LlmModelDTO[]> {
  return (await knex('llm_models').orderBy('id')).map(toDTO);
}

export async function findLlmModel(knex: Knex, id: number): Promise<LlmModelDTO | undefined> {
  const row = await knex('llm_models').where({ id }).first();
  return row ? toDTO(row) : undefined;
}

/** Names that collide with `name` (case and surrounding spaces ignored), other than the model `exceptId`. */
export async function collidingLlmModelNames(knex: Knex, name: string, exceptId?: number): Promise<string[]> {
  const q = knex('llm_models').whereRaw('lower(btrim(name)) = lower(btrim(?))', [name]);
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  return (await q.pluck('name')) as string[];
}

/** A concurrent save of the same name lost the race: the same answer as the rule gives. */
function nameTaken(err: unknown): never {
  if ((err as { code?: string }).code === '23505')
    throw fieldErrors('llmModel', [
      { field: 'name', violation: { code: 'NotUnique', key: 'soaApp.llmModel.nameNotUnique' } },
    ]);
  throw err;
}

export async function createLlmModel(knex: Knex, input: LlmModelInput): Promise<LlmModelDTO> {
  const [row] = await knex('llm_models')
    .insert({ name: input.name.trim(), modalities: JSON.stringify(input.modalities) })
    .returning('*')
    .catch(nameTaken);
  return toDTO(row);
}

export async function updateLlmModel(
  knex: Knex,
  id: number,
  input: LlmModelInput,
): Promise<LlmModelDTO | undefined> {
  const [row] = await knex('llm_models')
    .where({ id })
    .update({ name: input.name.trim(), modalities: JSON.stringify(input.modalities) })
    .returning('*')
    .catch(nameTaken);
  return row ? toDTO(row) : undefined;
}

export async function deleteLlmModel(knex: Knex, id: number): Promise<boolean> {
  return (await knex('llm_models').where({ id }).delete()) > 0;
}
