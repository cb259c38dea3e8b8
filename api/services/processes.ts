/**
 * Processes (Spheres): reads shaped as ProcessDTO with the caller's access mode, creation (default actors,
 * the creator's ADMIN grant), tag and actor replacement, deletion together with the process's authorities,
 * and the external document splitters a process may use for RAG.
 */
import type { Knex } from 'knex';
import { UniqueViolationError } from 'objection';
import { Process } from '../../db/models';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import {
  deleteActors,
  deleteProcessAuthorities,
  deleteProcessRow,
  grantProcessAdmin,
  insertActors,
  insertProcess,
  lockProcess,
  processActors,
  splitterExists,
  splitters,
  type ActorRow,
} from '../../db/queries/processes';
import { isAdmin, modeSatisfies, processMode, type Principal } from '../../domain/access';
import type { ExternalDocumentSplitterDTO, ProcessActorDTO, ProcessDTO } from '../../domain/api-types';
import { GLOBAL_COMPONENT_ID, type AccessMode } from '../../domain/enums';
import { processNameRule } from '../../domain/validation';
import { appError, fieldErrors } from '../errors';
import { orderTags, toTagDTO } from './process-tags';

const NAME_INDEX = 'processes_name_unique';

/** Every new process starts with these two speakers. */
export const DEFAULT_ACTORS: readonly ActorInput[] = [
  { actor: 'SPEAKER1', name: 'Speaker 1' },
  { actor: 'SPEAKER2', name: 'Speaker 2' },
];

export interface ActorInput {
  actor: string;
  name: string;
}

export interface ProcessFilter {
  /** Case-insensitive substring of the name. */
  name?: string;
  tagId?: number;
}

export interface NewProcess {
  name: string;
  isRagEnabled: boolean;
  tagIds: number[];
  ragTextSplitterId: number | null;
}

const GRAPH = '[processTags(tagOrder), actors(actorOrder), ragTextSplitter]';

const withGraph = (knex: Knex) =>
  Process.query(knex)
    .withGraphFetched(GRAPH)
    .modifiers({ tagOrder: orderTags, actorOrder: (qb) => qb.orderBy('process_actors.id') });

const toActorDTO = (a: ActorRow): ProcessActorDTO => ({
  id: a.id,
  processId: a.processId,
  actor: a.actor,
  name: a.name,
});

function toProcessDTO(p: Process, accessMode: AccessMode | null): ProcessDTO {
  return {
    id: p.id,
    name: p.name,
    processTags: (p.processTags ?? []).map(toTagDTO),
    isRagEnabled: p.isRagEnabled,
    ragTextSplitter: p.ragTextSplitter ? { id: p.ragTextSplitter.id, name: p.ragTextSplitter.name } : null,
    actors: (p.actors ?? []).map(toActorDTO),
    accessMode,
  };
}

/** Ids of the processes a non-admin holds any mode on (READ is the lowest); the global -1 is no process. */
function readableProcessIds(principal: Principal): number[] {
  const ids = principal.authorities
    .filter(
      (a) => a.type === 'PROCESS' && a.componentId !== GLOBAL_COMPONENT_ID && modeSatisfies(a.mode, 'READ'),
    )
    .map((a) => a.componentId);
  return [...new Set(ids)];
}

/** LIKE wildcards in user input match literally (backslash is PostgreSQL's default LIKE escape). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listProcesses(
  knex: Knex,
  principal: Principal,
  filter: ProcessFilter,
): Promise<ProcessDTO[]> {
  const q = withGraph(knex).orderBy('processes.id');
  if (!isAdmin(principal)) q.whereIn('processes.id', readableProcessIds(principal));
  if (filter.name) q.where('processes.name', 'ilike', `%${escapeLike(filter.name)}%`);
  if (filter.tagId !== undefined) {
    q.whereExists(
      Process.relatedQuery('processTags').where('process_process_tags.process_tag_id', filter.tagId),
    );
  }
  const processes = await q;
  return processes.map((p) => toProcessDTO(p, processMode(principal, p.id)));
}

export async function getProcess(knex: Knex, principal: Principal, id: number): Promise<ProcessDTO | null> {
  const p = await withGraph(knex).findById(id);
  return p ? toProcessDTO(p, processMode(principal, id)) : null;
}

export { processById as findProcess } from '../../db/queries/processes';

export { collidingProcessNames } from '../../db/queries/processes';

/** Throws the app error `error.idnotfound` when the splitter does not exist. */
export async function requireSplitter(knex: Knex, id: number): Promise<void> {
  if (!(await splitterExists(knex, id)))
    throw appError('error.idnotfound', 'externalDocumentSplitter', 'idnotfound');
}

/**
 * Inserts the process, its tags, default actors and obligatory Upload node in one transaction; a creator
 * without the admin role gets ADMIN on it (authorities rows are shared per component and mode, so an
 * existing row is reused).
 */
export async function createProcess(
  knex: Knex,
  creator: Principal & { id: number },
  input: NewProcess,
): Promise<ProcessDTO> {
  const id = await onNameTaken(input.name, () =>
    knex.transaction(async (trx) => {
      const processId = await insertProcess(trx, {
        name: input.name.trim(),
        isRagEnabled: input.isRagEnabled,
        ragTextSplitterId: input.ragTextSplitterId,
      });
      const tagIds = [...new Set(input.tagIds)];
      if (tagIds.length) await Process.relatedQuery('processTags', trx).for(processId).relate(tagIds);
      await insertActors(trx, processId, DEFAULT_ACTORS);
      await insertObligatoryUploadNode(trx, processId);
      if (!isAdmin(creator)) await grantProcessAdmin(trx, creator.id, processId);
      return processId;
    }),
  );
  return toProcessDTO((await withGraph(knex).findById(id))!, 'ADMIN');
}

/** Deletes the process (tags' join rows and actors cascade) and every PROCESS authority on it. */
export async function deleteProcess(knex: Knex, id: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await deleteProcessAuthorities(trx, id);
    await deleteProcessRow(trx, id);
  });
}

/** Replaces the process's tags; null when the process is gone. */
export async function replaceProcessTags(
  knex: Knex,
  principal: Principal,
  id: number,
  tagIds: readonly number[],
): Promise<ProcessDTO | null> {
  const found = await knex.transaction(async (trx) => {
    if (!(await lockProcess(trx, id))) return false;
    await Process.relatedQuery('processTags', trx).for(id).unrelate();
    const ids = [...new Set(tagIds)];
    if (ids.length) await Process.relatedQuery('processTags', trx).for(id).relate(ids);
    return true;
  });
  return found ? getProcess(knex, principal, id) : null;
}

/** Adds actors (or, with `replace`, makes them the only ones); returns all actors, or null when the process is gone. */
export async function saveActors(
  knex: Knex,
  processId: number,
  actors: readonly ActorInput[],
  replace: boolean,
): Promise<ProcessActorDTO[] | null> {
  return knex.transaction(async (trx) => {
    if (!(await lockProcess(trx, processId))) return null;
    if (replace) await deleteActors(trx, processId);
    await insertActors(
      trx,
      processId,
      actors.map((a) => ({ actor: a.actor.trim(), name: a.name.trim() })),
    );
    return (await processActors(trx, processId)).map(toActorDTO);
  });
}

export async function listSplitters(knex: Knex): Promise<ExternalDocumentSplitterDTO[]> {
  return (await splitters(knex)).map((s) => ({ id: s.id, name: s.name, description: s.description }));
}

/** Maps a lost race on the name index to the same field error as the domain rule. */
async function onNameTaken<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if ((err instanceof UniqueViolationError || e.code === '23505') && e.constraint === NAME_INDEX) {
      throw fieldErrors('process', [{ field: 'name', violation: processNameRule(name, [name])! }]);
    }
    throw err;
  }
}
