/**
 * Process tags: the list order (predefined first, then name), look-ups the handlers validate against, and
 * create / update / delete. Names are unique regardless of case and surrounding spaces (the
 * process_tags_name_unique index); a lost race on that index is reported like the domain rule.
 */
import type { Knex } from 'knex';
import { UniqueViolationError, type QueryBuilder } from 'objection';
import { ProcessTag } from '../../db/models';
import { isOnlySystemTagOfSomeProcess } from '../../db/queries/processes';
import type { ProcessTagDTO } from '../../domain/api-types';
import { tagNameRule } from '../../domain/validation';
import { appError, fieldErrors } from '../errors';

const NAME_INDEX = 'process_tags_name_unique';

/** Predefined (system) tags first, then by name, case-insensitively; id breaks ties. */
export function orderTags<M extends ProcessTag>(qb: QueryBuilder<M, M[]>): void {
  qb.orderBy('process_tags.predefined', 'desc')
    .orderByRaw('lower(process_tags.name)')
    .orderBy('process_tags.id');
}

export const toTagDTO = (t: ProcessTag): ProcessTagDTO => ({
  id: t.id,
  name: t.name,
  color: t.color,
  predefined: t.predefined,
});

export async function listTags(knex: Knex): Promise<ProcessTagDTO[]> {
  const tags = await ProcessTag.query(knex).modify(orderTags);
  return tags.map(toTagDTO);
}

export async function findTag(knex: Knex, id: number): Promise<ProcessTag | undefined> {
  return ProcessTag.query(knex).findById(id);
}

/** The tags with these ids; throws the app error `error.idnotfound` when any of them does not exist. */
export async function requireTags(knex: Knex, ids: readonly number[]): Promise<ProcessTag[]> {
  const wanted = [...new Set(ids)];
  const tags = wanted.length ? await ProcessTag.query(knex).findByIds(wanted) : [];
  if (tags.length !== wanted.length) throw appError('error.idnotfound', 'processTag', 'idnotfound');
  return tags;
}

export { collidingTagNames } from '../../db/queries/processes';

export interface TagInput {
  name: string;
  color: string;
}

export async function createTag(
  knex: Knex,
  input: TagInput & { predefined: boolean },
): Promise<ProcessTagDTO> {
  const tag = await onNameTaken(input.name, () =>
    ProcessTag.query(knex).insertAndFetch({
      name: input.name.trim(),
      color: input.color,
      predefined: input.predefined,
    }),
  );
  return toTagDTO(tag);
}

/** Renames or recolours a tag (null when it is gone); `predefined` never changes here. */
export async function updateTag(knex: Knex, id: number, input: TagInput): Promise<ProcessTagDTO | null> {
  const tag = await onNameTaken(input.name, () =>
    ProcessTag.query(knex).patchAndFetchById(id, { name: input.name.trim(), color: input.color }),
  );
  return tag ? toTagDTO(tag) : null;
}

/**
 * Deletes a tag; its join rows cascade, so it leaves every process. A predefined tag that is the only
 * predefined tag of some process is kept (400 `soaApp.processTag.inUseAsOnlySystemTag`), so that every
 * process still has exactly one. The row lock makes a concurrent tag assignment wait for this decision.
 */
export async function deleteTag(knex: Knex, id: number): Promise<void> {
  await knex.transaction(async (trx) => {
    const tag = await ProcessTag.query(trx).findById(id).forUpdate();
    if (!tag) return;
    if (tag.predefined && (await isOnlySystemTagOfSomeProcess(trx, id))) {
      throw appError('soaApp.processTag.inUseAsOnlySystemTag', 'processTag', 'inUseAsOnlySystemTag');
    }
    await ProcessTag.query(trx).deleteById(id);
  });
}

/** Maps a lost race on the name index to the same field error as the domain rule. */
async function onNameTaken<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueViolationError && err.constraint === NAME_INDEX) {
      throw fieldErrors('processTag', [{ field: 'name', violation: tagNameRule(name, [name])! }]);
    }
    throw err;
  }
}
