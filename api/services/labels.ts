/**
 * Labels of nodes (docs/api-graph.md "Labels, rules, relations"): classifier types of CLF nodes and the NER
 * tag type tree of SPAN/LEXICON nodes with its derived paths, plus the label file import and export. The
 * routes have checked the rules (domain/labels.ts) and access; this module reads and writes.
 */
import type { Knex } from 'knex';
import type {
  ClassifierTypeDTO,
  DataFormat,
  ImportResult,
  LabelImportEntry,
  LabelImportFile,
  MatchingRuleDTO,
  NerTagTypeDTO,
} from '../../domain/label-types';
import {
  buildTagTree,
  computeTagPaths,
  normalizeShortcutKeys,
  TAG_PATH_SEPARATOR,
} from '../../domain/labels';
import { normalizeTolerance } from '../../domain/matching-rules';
import { fieldErrors } from '../errors';
import { findRulesOfTagTypes, toRuleDTO } from './matching-rules';

/** Runs `fn`; a clash on a (node, lower(name)) unique index becomes the name's field error. */
export async function onNameTaken<T>(objectName: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      throw fieldErrors(objectName, [
        { field: 'name', violation: { code: 'NotUnique', key: 'soaApp.node.nameUniquenessError' } },
      ]);
    }
    throw err;
  }
}

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

const classifierColumns = (v: ClassifierTypeValues) => ({
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

export async function createClassifierType(
  knex: Knex,
  nodeId: number,
  values: ClassifierTypeValues,
): Promise<ClassifierTypeDTO> {
  const [row] = await onNameTaken('classifierType', () =>
    knex('classifier_types')
      .insert({ node_id: nodeId, ...classifierColumns(values) })
      .returning('*'),
  );
  return toClassifierDTO(row);
}

export async function updateClassifierType(
  knex: Knex,
  id: number,
  values: ClassifierTypeValues,
): Promise<ClassifierTypeDTO> {
  const [row] = await onNameTaken('classifierType', () =>
    knex('classifier_types').where({ id }).update(classifierColumns(values)).returning('*'),
  );
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

export interface NerTagTypeValues {
  parentId: number | null;
  name: string;
  backgroundColor: string;
  textColor: string;
  mandatory: boolean;
  prefixKey: string | null;
  suffixKey: string | null;
  dataFormat: DataFormat | null;
  selectable: boolean;
  disabled: boolean;
}

const nerColumns = (v: NerTagTypeValues) => ({
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

/** The root tag types of the given nodes with their descendants nested in `children`. */
export async function listRootTagTypes(knex: Knex, nodeIds: readonly number[]): Promise<NerTagTypeDTO[]> {
  return buildTagTree(await listTagTypes(knex, nodeIds));
}

export async function findTagType(knex: Knex, id: number): Promise<NerTagTypeDTO | undefined> {
  const row = await knex('ner_tag_types').where({ id }).first();
  return row ? toNerDTO(row) : undefined;
}

/** Recomputes the stored path of every tag type of the node and writes those that changed. */
async function refreshPaths(trx: Knex, nodeId: number): Promise<void> {
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

export async function createTagType(
  knex: Knex,
  nodeId: number,
  values: NerTagTypeValues,
): Promise<NerTagTypeDTO> {
  const id = await onNameTaken('nerTagType', () =>
    knex.transaction(async (trx) => {
      const [row] = await trx('ner_tag_types')
        .insert({ node_id: nodeId, ...nerColumns(values) })
        .returning('id');
      await refreshPaths(trx, nodeId);
      return Number(row.id);
    }),
  );
  return (await findTagType(knex, id))!;
}

/** Saves the tag type; a rename or a move rewrites the paths of it and its descendants. */
export async function updateTagType(
  knex: Knex,
  current: NerTagTypeDTO,
  values: NerTagTypeValues,
): Promise<NerTagTypeDTO> {
  await onNameTaken('nerTagType', () =>
    knex.transaction(async (trx) => {
      await trx('ner_tag_types').where('id', current.id).update(nerColumns(values));
      if (values.name !== current.name || values.parentId !== current.parentId)
        await refreshPaths(trx, current.nodeId);
    }),
  );
  return (await findTagType(knex, current.id))!;
}

/** Deletes the tag type; its descendants, rules, relation types and predicates go with it (FK cascades). */
export async function deleteTagType(knex: Knex, id: number): Promise<void> {
  await knex('ner_tag_types').where({ id }).del();
}

// --- import and export ---

/** The node's tag type tree with rules, in the import format (re-importable). */
export async function exportLabels(knex: Knex, nodeId: number): Promise<LabelImportFile> {
  const tagTypes = await listTagTypes(knex, [nodeId]);
  const rules = await findRulesOfTagTypes(
    knex,
    tagTypes.map((t) => t.id),
  );
  const toEntry = (t: NerTagTypeDTO & { children: NerTagTypeDTO[] }): LabelImportEntry => ({
    nerTagType: {
      name: t.name,
      backgroundColor: t.backgroundColor,
      textColor: t.textColor,
      mandatory: t.mandatory,
      prefixKey: t.prefixKey,
      suffixKey: t.suffixKey,
      dataFormat: t.dataFormat,
      selectable: t.selectable,
      disabled: t.disabled,
    },
    matchingRules: rules
      .filter((r) => r.nerTagTypeId === t.id)
      .map((r) => ({ expression: r.expression, matchingType: r.matchingType, tolerance: r.tolerance })),
    children: t.children.map((c) => toEntry(c as NerTagTypeDTO & { children: NerTagTypeDTO[] })),
  });
  return { data: buildTagTree(tagTypes).map(toEntry) };
}

const ruleKey = (tagTypeId: number, expression: string, matchingType: string) =>
  `${tagTypeId}\u0000${matchingType}\u0000${expression}`;

/**
 * Imports a schema-valid file into the node in one transaction. A tag type whose name the node already has
 * (any case) is a duplicate: nothing is saved for it, but its children and rules go under the existing one.
 * A rule whose tag type, expression and matching type already exist is a duplicate.
 */
export async function importLabels(knex: Knex, nodeId: number, file: LabelImportFile): Promise<ImportResult> {
  // A concurrent save of the same name still ends as the name's field error, not a 500.
  return onNameTaken('nerTagType', () => importInTransaction(knex, nodeId, file));
}

async function importInTransaction(knex: Knex, nodeId: number, file: LabelImportFile): Promise<ImportResult> {
  return knex.transaction(async (trx) => {
    const existing = (await trx('ner_tag_types').where('node_id', nodeId).orderBy('id')).map(toNerDTO);
    const byName = new Map(existing.map((t) => [t.name.toLowerCase(), t]));
    const existingRules = await findRulesOfTagTypes(
      trx,
      existing.map((t) => t.id),
    );
    const rulesByKey = new Map(
      existingRules.map((r) => [ruleKey(r.nerTagTypeId, r.expression, r.matchingType), r]),
    );
    const result: ImportResult = {
      savedTagTypes: [],
      savedRules: [],
      duplicatedTagTypes: [],
      duplicatedRules: [],
    };

    const importEntry = async (entry: LabelImportEntry, parent: NerTagTypeDTO | null): Promise<void> => {
      const input = entry.nerTagType;
      const name = input.name.trim();
      let tagType = byName.get(name.toLowerCase());
      if (tagType) {
        result.duplicatedTagTypes.push(tagType);
      } else {
        const [row] = await trx('ner_tag_types')
          .insert({
            node_id: nodeId,
            ...nerColumns({
              parentId: parent?.id ?? null,
              name,
              backgroundColor: input.backgroundColor,
              textColor: input.textColor,
              mandatory: input.mandatory ?? false,
              ...normalizeShortcutKeys(input),
              dataFormat: input.dataFormat ?? null,
              selectable: input.selectable ?? true,
              disabled: input.disabled ?? false,
            }),
            path: parent ? `${parent.path}${TAG_PATH_SEPARATOR}${name}` : name,
          })
          .returning('*');
        tagType = toNerDTO(row);
        byName.set(name.toLowerCase(), tagType);
        result.savedTagTypes.push(tagType);
      }
      for (const rule of entry.matchingRules ?? []) {
        const key = ruleKey(tagType.id, rule.expression, rule.matchingType);
        const duplicate = rulesByKey.get(key);
        if (duplicate) {
          result.duplicatedRules.push(duplicate);
          continue;
        }
        const [row] = await trx('matching_rules')
          .insert({
            ner_tag_type_id: tagType.id,
            expression: rule.expression,
            matching_type: rule.matchingType,
            tolerance: normalizeTolerance(rule.matchingType, rule.tolerance),
          })
          .returning('*');
        const saved: MatchingRuleDTO = toRuleDTO(row);
        rulesByKey.set(key, saved);
        result.savedRules.push(saved);
      }
      for (const child of entry.children ?? []) await importEntry(child, tagType);
    };

    for (const entry of file.data) await importEntry(entry, null);
    return result;
  });
}
