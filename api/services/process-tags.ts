/**
 * Process tags: the list order (predefined first, then name), look-ups the handlers validate against, and
 * create / update / delete. Names are unique regardless of case and surrounding spaces (the
 * process_tags_name_unique index); a lost race on that index is reported like the domain rule.
 */
import type { Knex } from 'knex';
import { UniqueViolationError, type QueryBuilder } from 'objection';
import { ProcessTag } from '../../db/models';
import { isOnlySystemTagOfSomeProcess } from '../../db/queries/processes';
import {
  deleteProcessTag,
  insertProcessTag,
  lockProcessTag,
  PROCESS_TAG_ORDER,
  processTagsByIds,
  updateProcessTag,
} from '../../db/queries/process-tags';
import type { ProcessTagDTO } from '../../domain/api-types';
import { tagNameRule } from '../../domain/validation';
import { appError, fieldErrors } from '../errors';

const NAME_INDEX = 'process_tags_name_unique';

/** The graph fetch's modifier of a process's tags (db/models/Process.ts): the list's order. */
export function orderTags<M extends ProcessTag>(qb: QueryBuilder<M, M[]>): void {
  qb.orderByRaw(PROCESS_TAG_ORDER);
}

export const toTagDTO = (t: ProcessTag): ProcessTagDTO => ({
  id: t.id,
  name: t.name,
  color: t.color,
  predefined: t.predefined,
});

export { listProcessTags as listTags, processTagById as findTag } from '../../db/queries/process-tags';

/** The tags with these ids; throws the app error `error.idnotfound` when any of them does not exist. */
export async function requireTags(knex: Knex, ids: readonly number[]): Promise<ProcessTagDTO[]> {
  const wanted = [...new Set(ids)];
  const tags = await processTagsByIds(knex, wanted);
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
  return onNameTaken(input.name, () =>
    insertProcessTag(knex, { name: input.name.trim(), color: input.color, predefined: input.predefined }),
  );
}

/** Renames or recolours a tag (null when it is gone); `predefined` never changes here. */
export async function updateTag(knex: Knex, id: number, input: TagInput): Promise<ProcessTagDTO | null> {
  const tag = await onNameTaken(input.name, () =>
    updateProcessTag(knex, id, { name: input.name.trim(), color: input.color }),
  );
  return tag ?? null;
}

/**
 * Deletes a tag; its join rows cascade, so it leaves every process. A predefined tag that is the only
 * predefined tag of some process is kept (400 `soaApp.processTag.inUseAsOnlySystemTag`), so that every
 * process still has exactly one. The row lock makes a concurrent tag assignment wait for this decision.
 */
export async function deleteTag(knex: Knex, id: number): Promise<void> {
  await knex.transaction(async (trx) => {
    const tag = await lockProcessTag(trx, id);
    if (!tag) return;
    if (tag.predefined && (await isOnlySystemTagOfSomeProcess(trx, id))) {
      throw appError('soaApp.processTag.inUseAsOnlySystemTag', 'processTag', 'inUseAsOnlySystemTag');
    }
    await deleteProcessTag(trx, id);
  });
}

/** Maps a lost race on the name index to the same field error as the domain rule. */
async function onNameTaken<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if ((err instanceof UniqueViolationError || e.code === '23505') && e.constraint === NAME_INDEX) {
      throw fieldErrors('processTag', [{ field: 'name', violation: tagNameRule(name, [name])! }]);
    }
    throw err;
  }
}
