/** The process_tags table: tags a process carries (process_process_tags), predefined (system) or not. */
import type { Knex } from 'knex';
import type { ProcessTagDTO } from '../../domain/api-types';

/** Predefined (system) tags first, then by name, case-insensitively; id breaks ties. */
export const PROCESS_TAG_ORDER = 'process_tags.predefined desc, lower(process_tags.name), process_tags.id';

const COLUMNS = ['id', 'name', 'color', 'predefined'];
const toDTO = (t: ProcessTagDTO): ProcessTagDTO => ({ ...t, id: Number(t.id) });

export async function listProcessTags(knex: Knex): Promise<ProcessTagDTO[]> {
  return (await knex('process_tags').orderByRaw(PROCESS_TAG_ORDER).select(COLUMNS)).map(toDTO);
}

export async function processTagById(knex: Knex, id: number): Promise<ProcessTagDTO | undefined> {
  const row = await knex('process_tags').where({ id }).first(COLUMNS);
  return row && toDTO(row);
}

/** The tags of the ids that exist. */
export async function processTagsByIds(knex: Knex, ids: readonly number[]): Promise<ProcessTagDTO[]> {
  if (!ids.length) return [];
  return (
    await knex('process_tags')
      .whereIn('id', [...ids])
      .select(COLUMNS)
  ).map(toDTO);
}

/** Inserts a tag; a name taken fails with the unique violation of process_tags_name_unique. */
export async function insertProcessTag(knex: Knex, tag: Omit<ProcessTagDTO, 'id'>): Promise<ProcessTagDTO> {
  const [row] = await knex('process_tags').insert(tag).returning(COLUMNS);
  return toDTO(row);
}

/** Renames or recolours a tag; undefined when it is gone. */
export async function updateProcessTag(
  knex: Knex,
  id: number,
  change: { name: string; color: string },
): Promise<ProcessTagDTO | undefined> {
  const [row] = await knex('process_tags').where({ id }).update(change).returning(COLUMNS);
  return row && toDTO(row);
}

/** Locks the tag row until the transaction ends; the tag, undefined when it is gone. */
export async function lockProcessTag(trx: Knex.Transaction, id: number): Promise<ProcessTagDTO | undefined> {
  const row = await trx('process_tags').where({ id }).forUpdate().first(COLUMNS);
  return row && toDTO(row);
}

/** Deletes a tag; its join rows cascade, so it leaves every process. */
export async function deleteProcessTag(knex: Knex, id: number): Promise<void> {
  await knex('process_tags').where({ id }).del();
}
