/**
 * Labels of nodes: the classifier_types of CLF nodes and the ner_tag_types tree of SPAN/LEXICON nodes with
 * its stored paths (domain/labels.ts computeTagPaths), and the label a tag write names (`LabelRef`).
 */
import type { Knex } from 'knex';
import type { ActivityType } from '../../domain/enums';
import type { ClassifierTypeDTO, NerTagTypeDTO } from '../../domain/label-types';
import { computeTagPaths } from '../../domain/labels';
import type { OptionTagType } from '../../domain/tags';
import { nodeRef } from './nodes';

// --- classifier types ---

type Row = Record<string, any>;

const toClassifierDTO = (r: Row): ClassifierTypeDTO => ({
  id: Number(r.id),
  name: r.name,
  description: r.description,
  backgroundColor: r.background_color,
  prefixKey: r.prefix_key,
  suffixKey: r.suffix_key,
  nodeId: Number(r.node_id),
});

export interface ClassifierTypeValues {
  name: string;
  description: string | null;
  backgroundColor: string;
  prefixKey: string | null;
  suffixKey: string | null;
}

export const classifierColumns = (v: ClassifierTypeValues) => ({
  name: v.name,
  description: v.description,
  background_color: v.backgroundColor,
  prefix_key: v.prefixKey,
  suffix_key: v.suffixKey,
});

export async function listClassifierTypesOfProcess(
  knex: Knex,
  processId: number,
): Promise<ClassifierTypeDTO[]> {
  const rows = await knex('classifier_types as c')
    .join('nodes as n', 'n.id', 'c.node_id')
    .where('n.process_id', processId)
    .orderBy(['c.node_id', 'c.id'])
    .select('c.*');
  return rows.map(toClassifierDTO);
}

export async function listClassifierTypesOfNode(knex: Knex, nodeId: number): Promise<ClassifierTypeDTO[]> {
  return (await knex('classifier_types').where('node_id', nodeId).orderBy('id')).map(toClassifierDTO);
}

export async function findClassifierType(knex: Knex, id: number): Promise<ClassifierTypeDTO | undefined> {
  const row = await knex('classifier_types').where({ id }).first();
  return row ? toClassifierDTO(row) : undefined;
}

export async function insertClassifierType(
  knex: Knex,
  nodeId: number,
  values: ClassifierTypeValues,
): Promise<ClassifierTypeDTO> {
  const [row] = await knex('classifier_types')
    .insert({ node_id: nodeId, ...classifierColumns(values) })
    .returning('*');
  return toClassifierDTO(row);
}

export async function updateClassifierTypeRow(
  knex: Knex,
  id: number,
  values: ClassifierTypeValues,
): Promise<ClassifierTypeDTO> {
  const [row] = await knex('classifier_types').where({ id }).update(classifierColumns(values)).returning('*');
  return toClassifierDTO(row);
}

export async function deleteClassifierType(knex: Knex, id: number): Promise<void> {
  await knex('classifier_types').where({ id }).del();
}

// --- NER tag types ---

export const toNerDTO = (r: Row): NerTagTypeDTO => ({
  id: Number(r.id),
  nodeId: Number(r.node_id),
  parentId: r.parent_id === null ? null : Number(r.parent_id),
  name: r.name,
  backgroundColor: r.background_color,
  textColor: r.text_color,
  mandatory: r.mandatory,
  prefixKey: r.prefix_key,
  suffixKey: r.suffix_key,
  dataFormat: r.data_format,
  selectable: r.selectable,
  disabled: r.disabled,
  path: r.path ?? r.name,
});

/** What a tag type's writer gives: the DTO without the ids and the derived path. */
export type NerTagTypeValues = Omit<NerTagTypeDTO, 'id' | 'nodeId' | 'path'>;

export const nerColumns = (v: NerTagTypeValues) => ({
  parent_id: v.parentId,
  name: v.name,
  background_color: v.backgroundColor,
  text_color: v.textColor,
  mandatory: v.mandatory,
  prefix_key: v.prefixKey,
  suffix_key: v.suffixKey,
  data_format: v.dataFormat,
  selectable: v.selectable,
  disabled: v.disabled,
});

/** The tag types of the given nodes, flat, in creation order. */
export async function listTagTypes(knex: Knex, nodeIds: readonly number[]): Promise<NerTagTypeDTO[]> {
  const rows = await knex('ner_tag_types').whereIn('node_id', nodeIds).orderBy('id');
  return rows.map(toNerDTO);
}

export async function findTagType(knex: Knex, id: number): Promise<NerTagTypeDTO | undefined> {
  const row = await knex('ner_tag_types').where({ id }).first();
  return row ? toNerDTO(row) : undefined;
}

/** The ids among `ids` of tag types of the node. */
export async function tagTypeIdsOfNode(
  knex: Knex,
  ids: readonly number[],
  nodeId: number,
): Promise<number[]> {
  return (
    await knex('ner_tag_types')
      .whereIn('id', [...ids])
      .where('node_id', nodeId)
      .pluck('id')
  ).map(Number);
}

/** Recomputes the stored path of every tag type of the node and writes those that changed. */
export async function refreshTagPaths(trx: Knex, nodeId: number): Promise<void> {
  const all = (
    await trx('ner_tag_types').where('node_id', nodeId).select('id', 'parent_id', 'name', 'path')
  ).map((r) => ({
    id: Number(r.id),
    parentId: r.parent_id === null ? null : Number(r.parent_id),
    name: r.name,
    path: r.path,
  }));
  const paths = computeTagPaths(all);
  for (const t of all) {
    const path = paths.get(t.id)!;
    if (t.path !== path) await trx('ner_tag_types').where('id', t.id).update({ path });
  }
}

/** Inserts a tag type; its stored path is `path` when given (else the caller refreshes the node's paths). */
export async function insertTagType(
  knex: Knex,
  nodeId: number,
  values: NerTagTypeValues,
  path?: string,
): Promise<NerTagTypeDTO> {
  const [row] = await knex('ner_tag_types')
    .insert({ node_id: nodeId, ...nerColumns(values), ...(path === undefined ? {} : { path }) })
    .returning('*');
  return toNerDTO(row);
}

export async function updateTagTypeRow(knex: Knex, id: number, values: NerTagTypeValues): Promise<void> {
  await knex('ner_tag_types').where('id', id).update(nerColumns(values));
}

/** Deletes the tag type; its descendants, rules, relation types and predicates go with it (FK cascades). */
export async function deleteTagType(knex: Knex, id: number): Promise<void> {
  await knex('ner_tag_types').where({ id }).del();
}

// --- labels of tag writes ---

/** The label a tag write names: a classifier type or a NER tag type, with its node. */
export interface LabelRef {
  id: number;
  nodeId: number;
  processId: number;
  activityType: string;
  name: string;
  /** chosen by a person: selectable and not disabled (a classifier type always is) */
  selectable: boolean;
}

/** A NER tag type as the label of a tag write. */
export async function nerTagTypeLabel(knex: Knex, id: number): Promise<LabelRef | undefined> {
  const r = await knex('ner_tag_types as tt')
    .join('nodes as n', 'n.id', 'tt.node_id')
    .where('tt.id', id)
    .first(
      'tt.id',
      'tt.name',
      'tt.selectable',
      'tt.disabled',
      'n.id as nodeId',
      'n.process_id as processId',
      'n.activity_type as activityType',
    );
  return r
    ? {
        id: r.id,
        name: r.name,
        nodeId: r.nodeId,
        processId: r.processId,
        activityType: r.activityType,
        selectable: r.selectable && !r.disabled,
      }
    : undefined;
}

/** A classifier type as the label of a tag write. */
export async function classifierTypeLabel(knex: Knex, id: number): Promise<LabelRef | undefined> {
  const type = await findClassifierType(knex, id);
  const node = type && (await nodeRef(knex, type.nodeId));
  return (
    node && {
      id: type!.id,
      name: type!.name,
      nodeId: node.id,
      processId: node.processId,
      activityType: node.activityType as ActivityType,
      selectable: true,
    }
  );
}

/** The tag types of the nodes as the labelling menu builds its options (domain/tags.ts buildTagTypeOptions). */
export async function tagTypeOptionRows(knex: Knex, nodeIds: readonly number[]): Promise<OptionTagType[]> {
  return knex('ner_tag_types')
    .whereIn('node_id', [...nodeIds])
    .orderBy('id')
    .select(
      'id',
      'node_id as nodeId',
      'parent_id as parentId',
      'name',
      'background_color as backgroundColor',
      'selectable',
      'disabled',
    );
}

/** The classifier types of the nodes (id, name, node), by id. */
export async function classifierTypeNames(
  knex: Knex,
  nodeIds: readonly number[],
): Promise<{ id: number; name: string; nodeId: number }[]> {
  if (!nodeIds.length) return [];
  return knex('classifier_types')
    .whereIn('node_id', [...nodeIds])
    .orderBy('id')
    .select('id', 'name', 'node_id as nodeId');
}

/** The ids of the node's classifier types (CLF) or NER tag types (NER). */
export async function labelIdsOfNode(knex: Knex, kind: 'CLF' | 'NER', nodeId: number): Promise<number[]> {
  const table = kind === 'CLF' ? 'classifier_types' : 'ner_tag_types';
  return (await knex(table).where('node_id', nodeId).pluck('id')).map(Number);
}

/** The node's labels as a model sees them: classifier types, or enabled tag types with their path, by id. */
export async function modelLabelRows(
  knex: Knex,
  nodeId: number,
  kind: 'CLF' | 'SPAN',
): Promise<{ id: number; name: string; description: string | null }[]> {
  const rows: { id: number | string; name: string; description: string | null }[] =
    kind === 'CLF'
      ? await knex('classifier_types')
          .where('node_id', nodeId)
          .orderBy('id')
          .select('id', 'name', 'description')
      : await knex('ner_tag_types')
          .where({ node_id: nodeId, disabled: false })
          .orderBy('id')
          .select('id', 'name', 'path as description');
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
