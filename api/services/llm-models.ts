/** LLM models offered to LLM prompt nodes and LLM external configs (seeded; managed by system admins). */
import type { Knex } from 'knex';
import type { LlmModelDTO } from '../../domain/integration-types';
import { insertLlmModel, updateLlmModelRow, type LlmModelInput } from '../../db/queries/llm-models';
import { fieldErrors } from '../errors';

export type { LlmModelInput };
export {
  collidingLlmModelNames,
  deleteLlmModel,
  findLlmModel,
  listLlmModels,
} from '../../db/queries/llm-models';

/** A concurrent save of the same name lost the race: the same answer as the rule gives. */
function nameTaken(err: unknown): never {
  if ((err as { code?: string }).code === '23505')
    throw fieldErrors('llmModel', [
      { field: 'name', violation: { code: 'NotUnique', key: 'soaApp.llmModel.nameNotUnique' } },
    ]);
  throw err;
}

export async function createLlmModel(knex: Knex, input: LlmModelInput): Promise<LlmModelDTO> {
  return insertLlmModel(knex, input).catch(nameTaken);
}

export async function updateLlmModel(
  knex: Knex,
  id: number,
  input: LlmModelInput,
): Promise<LlmModelDTO | undefined> {
  return updateLlmModelRow(knex, id, input).catch(nameTaken);
}
