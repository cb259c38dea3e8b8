/**
 * Processes and their tags, apart from what goes through the Process model (db/models/Process.ts), whose
 * relations earn it: a process with its tags, actors and RAG splitter in one graph fetch, and the tag links
 * related and unrelated. Here: the row lock of graph writes, name collisions, and the authorities on a process.
 */
import type { Knex } from 'knex';

/** Serializes graph changes of one process (the row lock lasts until the transaction ends). */
export async function lockProcess(trx: Knex.Transaction, processId: number): Promise<boolean> {
  return Boolean(await trx('processes').where('id', processId).forUpdate().first('id'));
}

/** Names of processes that collide with `name` under the uniqueness rule (case and surrounding spaces ignored). */
export async function collidingProcessNames(knex: Knex, name: string): Promise<string[]> {
  return (await knex('processes')
    .whereRaw('lower(btrim(name)) = lower(btrim(?))', [name])
    .pluck('name')) as string[];
}

/** Gives the user ADMIN on the process (the authority is created when missing). */
export async function grantProcessAdmin(
  trx: Knex.Transaction,
  userId: number,
  processId: number,
): Promise<void> {
  const [authority] = await trx('authorities')
    .insert({ component_id: processId, type: 'PROCESS', mode: 'ADMIN' })
    .onConflict(['component_id', 'type', 'mode'])
    .merge()
    .returning('id');
  await trx('user_authorities').insert({ user_id: userId, authority_id: authority.id }).onConflict().ignore();
}

/**
 * Deletes the authorities on the process and on its nodes: authorities name components by id without a
 * foreign key, so they do not cascade.
 */
export async function deleteProcessAuthorities(trx: Knex.Transaction, processId: number): Promise<void> {
  await trx('authorities').where({ component_id: processId, type: 'PROCESS' }).del();
  await trx('authorities')
    .where({ type: 'NODE' })
    .whereIn('component_id', trx('nodes').select('id').where({ process_id: processId }))
    .del();
}

/** Whether the predefined tag is the only predefined tag of some process (which may not lose it). */
export async function isOnlySystemTagOfSomeProcess(trx: Knex.Transaction, tagId: number): Promise<boolean> {
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

/** Names of other process tags that collide with `name` (case and surrounding spaces ignored). */
export async function collidingTagNames(knex: Knex, name: string, exceptId?: number): Promise<string[]> {
  const q = knex('process_tags').whereRaw('lower(btrim(name)) = lower(btrim(?))', [name]);
  if (exceptId !== undefined) q.whereNot('id', exceptId);
  return (await q.pluck('name')) as string[];
}

/** Sets the process's RAG switch and splitter under the row's lock; what they were before. */
export async function replaceProcessRag(
  knex: Knex,
  processId: number,
  isRagEnabled: boolean,
  splitterId: number | null,
): Promise<{ isRagEnabled: boolean; splitterId: number | null }> {
  return knex.transaction(async (trx) => {
    const before = await trx('processes')
      .where('id', processId)
      .forUpdate()
      .first('is_rag_enabled', 'rag_text_splitter_id');
    await trx('processes')
      .where('id', processId)
      .update({ is_rag_enabled: isRagEnabled, rag_text_splitter_id: splitterId });
    return {
      isRagEnabled: before.is_rag_enabled,
      splitterId: before.rag_text_splitter_id === null ? null : Number(before.rag_text_splitter_id),
    };
  });
}
