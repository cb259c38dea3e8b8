/**
 * Processes: the row, its actors, the splitters, the row lock of graph writes, name collisions, the
 * authorities on a process and its RAG switch. A process with its tags, actors and RAG splitter in one graph
 * fetch, and its tag links, go through the Process model (db/models/Process.ts), whose relations earn it.
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

// --- the process row, its actors and the splitters ---

export interface ProcessRow {
  id: number;
  name: string;
  isRagEnabled: boolean;
  ragTextSplitterId: number | null;
  createdDate: Date;
}

const PROCESS_COLUMNS = [
  'id',
  'name',
  'is_rag_enabled as isRagEnabled',
  'rag_text_splitter_id as ragTextSplitterId',
  'created_date as createdDate',
];

export async function processById(knex: Knex, id: number): Promise<ProcessRow | undefined> {
  const row: ProcessRow | undefined = await knex('processes').where({ id }).first(PROCESS_COLUMNS);
  return row && { ...row, id: Number(row.id) };
}

export async function processExists(knex: Knex, id: number): Promise<boolean> {
  return Boolean(await knex('processes').where('id', id).first('id'));
}

export async function processCount(knex: Knex): Promise<number> {
  const row = await knex('processes').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

/** Every process's id, ascending. */
export async function allProcessIds(knex: Knex): Promise<number[]> {
  return (await knex('processes').orderBy('id').pluck('id')).map(Number);
}

/** Inserts a process; its id. A name taken fails with the unique violation of processes_name_unique. */
export async function insertProcess(
  knex: Knex,
  p: { name: string; isRagEnabled: boolean; ragTextSplitterId: number | null },
): Promise<number> {
  const [row] = await knex('processes')
    .insert({ name: p.name, is_rag_enabled: p.isRagEnabled, rag_text_splitter_id: p.ragTextSplitterId })
    .returning('id');
  return Number(row.id);
}

/** Deletes the process row (its tags' join rows, actors and nodes cascade). */
export async function deleteProcessRow(knex: Knex, id: number): Promise<void> {
  await knex('processes').where({ id }).del();
}

export interface ActorRow {
  id: number;
  processId: number;
  actor: string;
  name: string;
}

/** The process's actors by id. */
export async function processActors(knex: Knex, processId: number): Promise<ActorRow[]> {
  const rows: ActorRow[] = await knex('process_actors')
    .where('process_id', processId)
    .orderBy('id')
    .select('id', 'process_id as processId', 'actor', 'name');
  return rows.map((r) => ({ ...r, id: Number(r.id), processId: Number(r.processId) }));
}

export async function insertActors(
  knex: Knex,
  processId: number,
  actors: readonly { actor: string; name: string }[],
): Promise<void> {
  if (actors.length)
    await knex('process_actors').insert(
      actors.map((a) => ({ process_id: processId, actor: a.actor, name: a.name })),
    );
}

export async function deleteActors(knex: Knex, processId: number): Promise<void> {
  await knex('process_actors').where('process_id', processId).delete();
}

export interface SplitterRow {
  id: number;
  name: string;
  description: string | null;
}

/** The external document splitters by name, then id. */
export async function splitters(knex: Knex): Promise<SplitterRow[]> {
  return knex('external_document_splitters')
    .orderBy('name')
    .orderBy('id')
    .select('id', 'name', 'description');
}

export async function splitterExists(knex: Knex, id: number): Promise<boolean> {
  return Boolean(await knex('external_document_splitters').where({ id }).first('id'));
}

/** The process of the node; undefined when the node is gone. */
export async function processOfNode(
  knex: Knex,
  nodeId: number,
): Promise<{ id: number; name: string } | undefined> {
  const row = await knex('nodes as n')
    .join('processes as p', 'p.id', 'n.process_id')
    .where('n.id', nodeId)
    .first('p.id', 'p.name');
  return row && { id: Number(row.id), name: row.name };
}
