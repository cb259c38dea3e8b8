/**
 * Rules of node labels (spec 3 sections 3, 5, 8, 9): which nodes carry which labels, classifier types, NER
 * tag types (a tree with a derived path, and its helpers), NER relation types, and the message keys of the
 * label rules. One function per rule, each returning null or a Violation {code, key}; the API and the forms
 * call the same functions. The rules of matching rules and their expression lists are in
 * ./matching-rules.ts. Pure: no I/O.
 */
import type { ActivityType } from './enums';
import type { DataFormat, RelationTypeDTO } from './label-types';
import { isHexColor, textPatternRule, type Violation } from './validation';

export const LABEL_LIMITS = {
  name: 100,
  description: 255,
  color: 20,
  priority: { min: 0, max: 4 },
  /** Levels of a NER tag type tree in an import file (the spec sets none; a path stays a readable size). */
  depth: 10,
} as const;
export const DEFAULT_RELATION_PRIORITY = 2;
/** The client's id of the 'Any' label in the relation modal; stored as null. */
export const ANY_LABEL_ID = -1;
export const TAG_PATH_SEPARATOR = ' -> ';

/**
 * Message keys these rules and the matching rules (./matching-rules.ts) introduce, with their English text
 * (the web's translation files must hold them; Polish alongside). Keys the rules reuse from elsewhere:
 * entity.validation.required, entity.validation.maxlength, textRegexError, soaApp.node.nameUniquenessError.
 */
export const LABEL_MESSAGES = {
  'soaApp.label.shortcutKeyError': 'Use a single letter a-z.',
  'soaApp.nerTagType.nameRegexError': 'Use letters, digits, spaces and - _ , ( ) / . only.',
  'soaApp.nerTagType.parentInvalid': 'The parent label must be a label of the same node.',
  'soaApp.nerTagType.parentCycle': 'A label cannot be placed under itself or one of its descendants.',
  'soaApp.matchingRule.regexInvalid': 'The expression is not a valid regular expression.',
  'soaApp.matchingRule.regexUnsupported':
    'Backreferences and lookarounds are not supported: rewrite the expression without them.',
  'soaApp.matchingRule.regexTooComplex': 'The expression is too complex: use fewer or smaller repetitions.',
  'soaApp.label.colorInvalid': 'Enter a colour as #rgb or #rrggbb.',
  'soaApp.matchingRule.toleranceRange': 'The tolerance must be 1 (low), 2 (medium) or 3 (high).',
  'soaApp.matchingRule.listDuplicates': 'List contains duplicates',
  'soaApp.matchingRule.listEmptyValues': 'List contains empty values',
  'soaApp.matchingRule.listEmpty': 'List is empty. Add an expression.',
  'soaApp.nerRelationType.priorityRange': 'The priority must be between 0 and 4.',
  'soaApp.nerRelationType.labelInvalid': 'The label must be a label of the same node.',
  'error.dataValidationUnexpectedError': 'Unexpected data validation error.',
} as const;

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };
const maxLength = (max: number): Violation => ({
  code: 'Size',
  key: 'entity.validation.maxlength',
  params: { max },
});
const NOT_UNIQUE: Violation = { code: 'NotUnique', key: 'soaApp.node.nameUniquenessError' };
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

// --- which nodes carry which labels ---

export const CLASSIFIER_NODE_TYPES: readonly ActivityType[] = ['CLF'];
export const NER_NODE_TYPES: readonly ActivityType[] = ['SPAN', 'LEXICON'];
export const RELATION_NODE_TYPES: readonly ActivityType[] = ['SPAN'];

export const acceptsClassifierTypes = (t: string) => (CLASSIFIER_NODE_TYPES as readonly string[]).includes(t);
export const acceptsNerTagTypes = (t: string) => (NER_NODE_TYPES as readonly string[]).includes(t);
export const acceptsRelationTypes = (t: string) => (RELATION_NODE_TYPES as readonly string[]).includes(t);

// --- shared by both label kinds ---

export const SHORTCUT_KEY_PATTERN = /^[a-z]$/;

/** A keyboard shortcut key: empty, or a single letter a-z. */
export function shortcutKeyRule(value: string | null | undefined): Violation | null {
  if (value === null || value === undefined || value === '') return null;
  return SHORTCUT_KEY_PATTERN.test(value) ? null : { code: 'Pattern', key: 'soaApp.label.shortcutKeyError' };
}

/** Empty keys become null, and without a suffix key the prefix key is cleared. */
export function normalizeShortcutKeys(keys: { prefixKey?: string | null; suffixKey?: string | null }): {
  prefixKey: string | null;
  suffixKey: string | null;
} {
  const suffixKey = keys.suffixKey ? keys.suffixKey : null;
  return { prefixKey: suffixKey && keys.prefixKey ? keys.prefixKey : null, suffixKey };
}

/** Background and text colours: required, no longer than their column, and `#rgb` or `#rrggbb`. */
export function labelColorRule(value: string | null | undefined): Violation | null {
  if (blank(value)) return REQUIRED;
  if (value!.length > LABEL_LIMITS.color) return maxLength(LABEL_LIMITS.color);
  return isHexColor(value) ? null : { code: 'Pattern', key: 'soaApp.label.colorInvalid' };
}

export function labelDescriptionRule(value: string | null | undefined): Violation | null {
  return (value ?? '').length > LABEL_LIMITS.description ? maxLength(LABEL_LIMITS.description) : null;
}

// --- classifier types ---

/** Required, max 100, the shared text pattern, unique among the node's other classifier types (any case). */
export function classifierTypeNameRule(name: string, otherNames: readonly string[] = []): Violation | null {
  if (blank(name)) return REQUIRED;
  if (name.length > LABEL_LIMITS.name) return maxLength(LABEL_LIMITS.name);
  const pattern = textPatternRule()(name);
  if (pattern) return pattern;
  return otherNames.some((n) => sameName(n, name)) ? NOT_UNIQUE : null;
}

export interface ClassifierTypeDraft {
  name: string;
  description?: string | null;
  backgroundColor: string;
  prefixKey?: string | null;
  suffixKey?: string | null;
}

/** Every field rule of a classifier type, by field (null = valid). */
export function classifierTypeViolations(
  draft: ClassifierTypeDraft,
  otherNames: readonly string[] = [],
): Record<'name' | 'description' | 'backgroundColor' | 'prefixKey' | 'suffixKey', Violation | null> {
  return {
    name: classifierTypeNameRule(draft.name ?? '', otherNames),
    description: labelDescriptionRule(draft.description),
    backgroundColor: labelColorRule(draft.backgroundColor),
    prefixKey: shortcutKeyRule(draft.prefixKey),
    suffixKey: shortcutKeyRule(draft.suffixKey),
  };
}

/** What gets saved: trimmed name, empty description as null, shortcut keys normalized. */
export function normalizeClassifierType<T extends ClassifierTypeDraft>(
  draft: T,
): T & { description: string | null; prefixKey: string | null; suffixKey: string | null } {
  return {
    ...draft,
    name: draft.name.trim(),
    description: draft.description ? draft.description : null,
    ...normalizeShortcutKeys(draft),
  };
}

// --- NER tag types ---

/**
 * Letters (any script), digits, spaces and - _ , ( ) / . ; at least one character other than a space.
 * Written so that no two parts can match the same character (leading spaces, then the first non-space):
 * linear time, unlike the `[x ]*[x][x ]*` form, which backtracked quadratically on a long invalid name.
 */
export const NER_TAG_NAME_PATTERN = /^ *[\p{L}\p{N}\-_,()/.][\p{L}\p{N} \-_,()/.]*$/u;
/** The same pattern as a JSON-Schema string (ajv compiles patterns with the u flag). */
export const NER_TAG_NAME_PATTERN_SOURCE = NER_TAG_NAME_PATTERN.source;

export function nerTagTypeNameRule(name: string, otherNames: readonly string[] = []): Violation | null {
  if (blank(name)) return REQUIRED;
  if (name.length > LABEL_LIMITS.name) return maxLength(LABEL_LIMITS.name);
  if (!NER_TAG_NAME_PATTERN.test(name)) return { code: 'Pattern', key: 'soaApp.nerTagType.nameRegexError' };
  return otherNames.some((n) => sameName(n, name)) ? NOT_UNIQUE : null;
}

export interface NerTagTypeDraft {
  name: string;
  backgroundColor: string;
  textColor: string;
  parentId?: number | null;
  prefixKey?: string | null;
  suffixKey?: string | null;
}

/**
 * Every field rule of a tag type (`id` undefined for a new one), by field. `nodeTagTypes` are the node's
 * tag types (names are compared with all but the tag type itself).
 */
export function nerTagTypeViolations(
  draft: NerTagTypeDraft & { id?: number },
  nodeTagTypes: readonly (TagTreeItem & { name: string })[],
): Record<
  'name' | 'backgroundColor' | 'textColor' | 'parentId' | 'prefixKey' | 'suffixKey',
  Violation | null
> {
  const otherNames = nodeTagTypes.filter((t) => t.id !== draft.id).map((t) => t.name);
  return {
    name: nerTagTypeNameRule(draft.name ?? '', otherNames),
    backgroundColor: labelColorRule(draft.backgroundColor),
    textColor: labelColorRule(draft.textColor),
    parentId: nerTagParentRule(draft.id, draft.parentId, nodeTagTypes),
    prefixKey: shortcutKeyRule(draft.prefixKey),
    suffixKey: shortcutKeyRule(draft.suffixKey),
  };
}

/** What gets saved: trimmed name, no parent as null, shortcut keys normalized. */
export function normalizeNerTagType<T extends NerTagTypeDraft>(
  draft: T,
): T & { parentId: number | null; prefixKey: string | null; suffixKey: string | null } {
  return {
    ...draft,
    name: draft.name.trim(),
    parentId: draft.parentId ?? null,
    ...normalizeShortcutKeys(draft),
  };
}

/**
 * What a caller with WRITE but not ADMIN on the node may set on a NER tag type (spec 2 section 6: options
 * are added and edited with WRITE from the labelling menu, the tag type itself only by admins): the name and
 * colours, and the parent of a new one. Everything else keeps its current value (`current`, on an edit) or
 * takes the default of a new tag type.
 */
export interface NerTagTypeFields {
  parentId?: number | null;
  name?: string | null;
  backgroundColor?: string | null;
  textColor?: string | null;
  mandatory?: boolean | null;
  prefixKey?: string | null;
  suffixKey?: string | null;
  dataFormat?: DataFormat | null;
  selectable?: boolean | null;
  disabled?: boolean | null;
}

export function writerTagTypeInput(
  input: NerTagTypeFields,
  current: Required<NerTagTypeFields> | null,
): NerTagTypeFields {
  const own = { name: input.name, backgroundColor: input.backgroundColor, textColor: input.textColor };
  if (!current) return { ...own, parentId: input.parentId };
  const { parentId, mandatory, prefixKey, suffixKey, dataFormat, selectable, disabled } = current;
  return { parentId, mandatory, prefixKey, suffixKey, dataFormat, selectable, disabled, ...own };
}

export interface TagTreeItem {
  id: number;
  parentId: number | null;
}

/** Ids of every descendant of `id` (not `id` itself). */
export function descendantIds(id: number, items: readonly TagTreeItem[]): Set<number> {
  const found = new Set<number>();
  const queue = [id];
  while (queue.length) {
    const current = queue.shift()!;
    for (const item of items) {
      if (item.parentId === current && !found.has(item.id) && item.id !== id) {
        found.add(item.id);
        queue.push(item.id);
      }
    }
  }
  return found;
}

/**
 * The parent of a tag type (`id` undefined for a new one): none, or a tag type of the same node that is
 * neither the tag type itself nor one of its descendants.
 */
export function nerTagParentRule(
  id: number | undefined,
  parentId: number | null | undefined,
  nodeTagTypes: readonly TagTreeItem[],
): Violation | null {
  if (parentId === null || parentId === undefined) return null;
  if (!nodeTagTypes.some((t) => t.id === parentId))
    return { code: 'Match', key: 'soaApp.nerTagType.parentInvalid' };
  if (id !== undefined && (parentId === id || descendantIds(id, nodeTagTypes).has(parentId)))
    return { code: 'Match', key: 'soaApp.nerTagType.parentCycle' };
  return null;
}

/** Path of every tag type: the names from its root down to it, joined by ' -> '. */
export function computeTagPaths(items: readonly (TagTreeItem & { name: string })[]): Map<number, string> {
  const byId = new Map(items.map((t) => [t.id, t]));
  const paths = new Map<number, string>();
  const pathOf = (id: number, seen: Set<number>): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const item = byId.get(id)!;
    const parent = item.parentId !== null ? byId.get(item.parentId) : undefined;
    // A parent outside the list (or a cycle, which the rules prevent) makes the item a root.
    const path =
      parent && !seen.has(parent.id)
        ? `${pathOf(parent.id, new Set(seen).add(id))}${TAG_PATH_SEPARATOR}${item.name}`
        : item.name;
    paths.set(id, path);
    return path;
  };
  for (const item of items) pathOf(item.id, new Set([item.id]));
  return paths;
}

export type TreeNode<T> = T & { children: TreeNode<T>[] };

/** Nests a flat list: roots are items without a parent in the list; order follows the input. */
export function buildTagTree<T extends TagTreeItem>(items: readonly T[]): TreeNode<T>[] {
  const nodes = new Map<number, TreeNode<T>>(items.map((t) => [t.id, { ...t, children: [] }]));
  const roots: TreeNode<T>[] = [];
  for (const item of items) {
    const node = nodes.get(item.id)!;
    const parent = item.parentId !== null ? nodes.get(item.parentId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

// --- relation types ---

export function relationNameRule(name: string | null | undefined): Violation | null {
  if (blank(name)) return REQUIRED;
  return name!.length > LABEL_LIMITS.name ? maxLength(LABEL_LIMITS.name) : null;
}

export function relationPriorityRule(priority: number): Violation | null {
  const { min, max } = LABEL_LIMITS.priority;
  return Number.isInteger(priority) && priority >= min && priority <= max
    ? null
    : { code: 'Size', key: 'soaApp.nerRelationType.priorityRange', params: { min, max } };
}

/** A relation end: Any (null) or a tag type of the relation's node. */
export function relationLabelRule(
  labelId: number | null,
  nodeTagTypeIds: readonly number[],
): Violation | null {
  if (labelId === null) return null;
  return nodeTagTypeIds.includes(labelId)
    ? null
    : { code: 'Match', key: 'soaApp.nerRelationType.labelInvalid' };
}

/** Every field rule of a relation type (before normalizeRelationType: -1 still means Any), by field. */
export function relationTypeViolations(
  draft: {
    name: string;
    color: string;
    priority?: number | null;
    fromId?: number | null;
    toId?: number | null;
  },
  nodeTagTypeIds: readonly number[],
): Record<'name' | 'color' | 'priority' | 'fromId' | 'toId', Violation | null> {
  return {
    name: relationNameRule(draft.name),
    color: labelColorRule(draft.color),
    priority: relationPriorityRule(draft.priority ?? DEFAULT_RELATION_PRIORITY),
    fromId: relationLabelRule(anyToNull(draft.fromId), nodeTagTypeIds),
    toId: relationLabelRule(anyToNull(draft.toId), nodeTagTypeIds),
  };
}

const anyToNull = (id: number | null | undefined) =>
  id === undefined || id === null || id === ANY_LABEL_ID ? null : id;

/**
 * Applies the relation couplings: -1 or absent means Any (null); priority defaults to medium; merge forces
 * the 'to' label to the 'from' label, and a relation is of one kind, so merge clears strict.
 */
export function normalizeRelationType<
  T extends {
    fromId?: number | null;
    toId?: number | null;
    priority?: number | null;
    strict?: boolean | null;
    merge?: boolean | null;
  },
>(input: T): T & Pick<RelationTypeDTO, 'fromId' | 'toId' | 'priority' | 'strict' | 'merge'> {
  const merge = input.merge ?? false;
  const fromId = anyToNull(input.fromId);
  return {
    ...input,
    fromId,
    toId: merge ? fromId : anyToNull(input.toId),
    priority: input.priority ?? DEFAULT_RELATION_PRIORITY,
    strict: merge ? false : (input.strict ?? false),
    merge,
  };
}
