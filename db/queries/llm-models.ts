/** The llm_models table: LLM models offered to LLM prompt nodes and LLM external configs. */
import type { Knex } from 'knex';
import type { LlmModelDTO } from '../../domain/integration-types';

export interface LlmModelInput {
  name: string;
  modalities: string[];
}

const toDTO = (r: { id: number; name: string; modalities: string[] | null }): LlmModelDTO => ({
  id: r.id,
  name: r.name,
  modalities: r.modalities ?? [],
});

const columns = (input: LlmModelInput) => ({
  name: input.name.trim(),
  modalities: JSON.stringify(input.modalities),
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

/** A name taken already fails with the unique violation. */
export async function insertLlmModel(knex: Knex, input: LlmModelInput): Promise<LlmModelDTO> {
  const [row] = await knex('llm_models').insert(columns(input)).returning('*');
  return toDTO(row);
}

export async function updateLlmModelRow(
  knex: Knex,
  id: number,
  input: LlmModelInput,
): Promise<LlmModelDTO | undefined> {
  const [row] = await knex('llm_models').where({ id }).update(columns(input)).returning('*');
  return row ? toDTO(row) : undefined;
}

export async function deleteLlmModel(knex: Knex, id: number): Promise<boolean> {
  return (await knex('llm_models').where({ id }).delete()) > 0;
}

/** The ids among `ids` of models that exist. */
export async function existingLlmModelIds(knex: Knex, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  return knex('llm_models')
    .whereIn('id', [...ids])
    .pluck('id');
}
