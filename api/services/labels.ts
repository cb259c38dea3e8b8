/**
 * Labels of nodes (docs/api-graph.md "Labels, rules, relations"): classifier types of CLF nodes and the NER
 * tag type tree of SPAN/LEXICON nodes with its derived paths, plus the label file import and export. The
 * routes have checked the rules (domain/labels.ts) and access; the rows are read and written through
 * db/queries/labels.ts, this module maps name clashes and runs the import.
 */
import type { Knex } from 'knex';
import type {
  ImportResult,
  LabelImportEntry,
  LabelImportFile,
  NerTagTypeDTO,
} from '../../domain/label-types';
import { buildTagTree, normalizeShortcutKeys, TAG_PATH_SEPARATOR } from '../../domain/labels';
import { normalizeTolerance } from '../../domain/matching-rules';
import { fieldErrors } from '../errors';
import { findRulesOfTagTypes, insertRule } from '../../db/queries/matching-rules';
import {
  insertClassifierType,
  insertTagType,
  listTagTypes,
  refreshTagPaths,
  updateClassifierTypeRow,
  findTagType,
  updateTagTypeRow,
  type ClassifierTypeValues,
  type NerTagTypeValues,
} from '../../db/queries/labels';

export {
  deleteClassifierType,
  deleteTagType,
  findClassifierType,
  findTagType,
  listClassifierTypesOfNode,
  listClassifierTypesOfProcess,
  listTagTypes,
  toNerDTO,
  type ClassifierTypeValues,
  type NerTagTypeValues,
} from '../../db/queries/labels';

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

export const createClassifierType = (knex: Knex, nodeId: number, values: ClassifierTypeValues) =>
  onNameTaken('classifierType', () => insertClassifierType(knex, nodeId, values));

export const updateClassifierType = (knex: Knex, id: number, values: ClassifierTypeValues) =>
  onNameTaken('classifierType', () => updateClassifierTypeRow(knex, id, values));

// --- NER tag types ---

/** The root tag types of the given nodes with their descendants nested in `children`. */
export async function listRootTagTypes(knex: Knex, nodeIds: readonly number[]): Promise<NerTagTypeDTO[]> {
  return buildTagTree(await listTagTypes(knex, nodeIds));
}

export async function createTagType(
  knex: Knex,
  nodeId: number,
  values: NerTagTypeValues,
): Promise<NerTagTypeDTO> {
  const id = await onNameTaken('nerTagType', () =>
    knex.transaction(async (trx) => {
      const created = await insertTagType(trx, nodeId, values);
      await refreshTagPaths(trx, nodeId);
      return created.id;
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
      await updateTagTypeRow(trx, current.id, values);
      if (values.name !== current.name || values.parentId !== current.parentId)
        await refreshTagPaths(trx, current.nodeId);
    }),
  );
  return (await findTagType(knex, current.id))!;
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
    const existing = await listTagTypes(trx, [nodeId]);
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
        tagType = await insertTagType(
          trx,
          nodeId,
          {
            parentId: parent?.id ?? null,
            name,
            backgroundColor: input.backgroundColor,
            textColor: input.textColor,
            mandatory: input.mandatory ?? false,
            ...normalizeShortcutKeys(input),
            dataFormat: input.dataFormat ?? null,
            selectable: input.selectable ?? true,
            disabled: input.disabled ?? false,
          },
          parent ? `${parent.path}${TAG_PATH_SEPARATOR}${name}` : name,
        );
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
        const saved = await insertRule(trx, {
          nerTagTypeId: tagType.id,
          expression: rule.expression,
          matchingType: rule.matchingType,
          tolerance: normalizeTolerance(rule.matchingType, rule.tolerance),
        });
        rulesByKey.set(key, saved);
        result.savedRules.push(saved);
      }
      for (const child of entry.children ?? []) await importEntry(child, tagType);
    };

    for (const entry of file.data) await importEntry(entry, null);
    return result;
  });
}
