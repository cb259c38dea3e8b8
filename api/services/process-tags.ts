/**
 * Process tags: the list order (predefined first, then name), look-ups the handlers validate against, and
 * create / update / delete. Names are unique regardless of case and surrounding spaces (the
 * process_tags_name_unique index); a lost race on that index is reported like the domain rule.
 */
import type { Knex } from 'knex';
import { UniqueViolationError, type QueryBuilder } from 'objection';
import { ProcessTag } from '../../db/models';
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

/** Names of other tags that collide with `name` under the uniqueness rule (what tagNameRule compares to). */
export async function collidingTagNames(knex: Knex, name: string, exceptId?: number): Promise<string[]> {
  const q = knex('process_tags').whereRaw('lower(btrim(name)) = lower(btrim(?))', [name]);
  if (exceptId !== undefined) q.whereNot('id', exceptId);
  return (await q.pluck('name')) as string[];
}

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

async function isOnlySystemTagOfSomeProcess(trx: Knex.Transaction, tagId: number): Promise<boolean> {
  const row = await trx('process_process_tags as ppt')
    .where('ppt.process_tag_id', tagId)
    .whereNotExists(
      trx('process_process_tags as other')
        .join('process_tags as t', 't.id', 'other.process_tag_id')
        .whereRaw('other.process_id = ppt.process_id')
        .where('t.predefined', true)
        .whereNot('other.process_tag_id', tagId),
    )
    .first('ppt.process_id');
  return row !== undefined;
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
