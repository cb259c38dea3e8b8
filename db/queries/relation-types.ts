/**
 * The ner_relation_types table: NER relation types of SPAN nodes (docs/api-graph.md): a named, coloured link between two tag types of
 * the node (null = Any) with a priority and a kind (normal, strict, merge). Rules: domain/labels.ts.
 */
import type { Knex } from 'knex';
import type { RelationTypeDTO } from '../../domain/label-types';

type Row = Record<string, any>;

const idOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const toDTO = (r: Row): RelationTypeDTO => ({
  id: Number(r.id),
  nodeId: Number(r.node_id),
  name: r.name,
  color: r.color,
  priority: r.priority,
  fromId: idOrNull(r.from_id),
  toId: idOrNull(r.to_id),
  strict: r.strict,
  merge: r.merge,
});

export type RelationTypeValues = Omit<RelationTypeDTO, 'id' | 'nodeId'>;

const columns = (v: RelationTypeValues) => ({
  name: v.name,
  color: v.color,
  priority: v.priority,
  from_id: v.fromId,
  to_id: v.toId,
  strict: v.strict,
  merge: v.merge,
});

export async function listRelationTypes(knex: Knex, nodeIds: readonly number[]): Promise<RelationTypeDTO[]> {
  const rows = await knex('ner_relation_types').whereIn('node_id', nodeIds).orderBy(['node_id', 'id']);
  return rows.map(toDTO);
}

export async function findRelationType(knex: Knex, id: number): Promise<RelationTypeDTO | undefined> {
  const row = await knex('ner_relation_types').where({ id }).first();
  return row ? toDTO(row) : undefined;
}

export async function createRelationType(
  knex: Knex,
  nodeId: number,
  values: RelationTypeValues,
): Promise<RelationTypeDTO> {
  const [row] = await knex('ner_relation_types')
    .insert({ node_id: nodeId, ...columns(values) })
    .returning('*');
  return toDTO(row);
}

export async function updateRelationType(
  knex: Knex,
  id: number,
  values: RelationTypeValues,
): Promise<RelationTypeDTO> {
  const [row] = await knex('ner_relation_types').where({ id }).update(columns(values)).returning('*');
  return toDTO(row);
}

export async function deleteRelationType(knex: Knex, id: number): Promise<void> {
  await knex('ner_relation_types').where({ id }).del();
}

/** Ids of the node's tag types: the labels a relation of the node may link. */
export async function tagTypeIdsOfNode(knex: Knex, nodeId: number): Promise<number[]> {
  return (await knex('ner_tag_types').where('node_id', nodeId).pluck('id')).map(Number);
}
