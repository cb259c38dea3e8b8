/** Payload types of the labels, matching rules and relation types API (issue 3, docs/api-graph.md). */

export const DataFormats = ['DATE', 'MONEY'] as const;
export type DataFormat = (typeof DataFormats)[number];

export const MatchingTypes = ['EXACT', 'REGEX', 'FUZZY'] as const;
export type MatchingType = (typeof MatchingTypes)[number];

/** Fuzzy tolerance: 1 LOW, 2 MEDIUM, 3 HIGH. */
export const Tolerances = { LOW: 1, MEDIUM: 2, HIGH: 3 } as const;

/** Relation priority: 4 highest, 3 high, 2 medium (default), 1 low, 0 lowest. */
export const RelationPriorities = { LOWEST: 0, LOW: 1, MEDIUM: 2, HIGH: 3, HIGHEST: 4 } as const;

export interface ClassifierTypeDTO {
  id: number;
  name: string;
  description: string | null;
  backgroundColor: string;
  prefixKey: string | null;
  suffixKey: string | null;
  nodeId: number;
}

/** Body of POST /api/node/{nodeId}/classifier-types (id absent) and PUT /api/classifier-types (id present). */
export type ClassifierTypeInput = Omit<ClassifierTypeDTO, 'id' | 'nodeId'> & { id?: number; nodeId?: number };

export interface NerTagTypeDTO {
  id: number;
  nodeId: number;
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
  /** Names from the root joined by ' -> ' (derived, kept up to date on rename/move). */
  path: string;
  /** Present in GET /api/root-ner-tag-types (nested tree); absent in flat lists. */
  children?: NerTagTypeDTO[];
}

/** Body of POST /api/node/{nodeId}/ner-tag-type (id absent) and PUT /api/ner-tag-type (id present). */
export interface NerTagTypeInput {
  id?: number;
  nodeId?: number;
  parentId?: number | null;
  name: string;
  backgroundColor: string;
  textColor: string;
  mandatory?: boolean;
  prefixKey?: string | null;
  suffixKey?: string | null;
  dataFormat?: DataFormat | null;
  selectable?: boolean;
  disabled?: boolean;
}

export interface MatchingRuleDTO {
  id: number;
  nerTagTypeId: number;
  expression: string;
  matchingType: MatchingType;
  /** 1..3 for FUZZY, null otherwise. */
  tolerance: number | null;
}

export type MatchingRuleInput = Omit<MatchingRuleDTO, 'id' | 'nerTagTypeId'> & {
  id?: number;
  nerTagTypeId?: number;
};

/** POST /api/matching-rules/batch: applied in one transaction; every id must belong to nerTagTypeId. */
export interface BatchRuleRequest {
  nerTagTypeId: number;
  deletedRuleIds: number[];
  updatedRules: MatchingRuleInput[];
  newRules: MatchingRuleInput[];
}

export interface RelationTypeDTO {
  id: number;
  nodeId: number;
  name: string;
  color: string;
  /** 0..4, default 2. */
  priority: number;
  /** Tag type id of the node, null = Any (the client may send -1 for Any). */
  fromId: number | null;
  toId: number | null;
  strict: boolean;
  /** merge forces toId = fromId. */
  merge: boolean;
}

export type RelationTypeInput = Omit<RelationTypeDTO, 'id' | 'priority' | 'strict' | 'merge'> & {
  id?: number;
  priority?: number | null;
  strict?: boolean;
  merge?: boolean;
};

/** One entry of the import/export file `{data: LabelImportEntry[]}`. */
export interface LabelImportTagType {
  name: string;
  backgroundColor: string;
  textColor: string;
  mandatory?: boolean;
  prefixKey?: string | null;
  suffixKey?: string | null;
  dataFormat?: DataFormat | null;
  selectable?: boolean;
  disabled?: boolean;
}

export interface LabelImportRule {
  expression: string;
  matchingType: MatchingType;
  tolerance?: number | null;
}

export interface LabelImportEntry {
  nerTagType: LabelImportTagType;
  matchingRules: LabelImportRule[];
  children: LabelImportEntry[];
}

export interface LabelImportFile {
  data: LabelImportEntry[];
}

/** Response of POST /api/node/{nodeId}/ner-tag-type/import. */
export interface ImportResult {
  savedTagTypes: NerTagTypeDTO[];
  savedRules: MatchingRuleDTO[];
  /**
   * The existing tag types whose name (case-insensitive) an imported one repeated; the imported entry's
   * children and rules still go under the existing one.
   */
  duplicatedTagTypes: NerTagTypeDTO[];
  /** The existing rules an imported one repeated: same tag type, expression and matching type. */
  duplicatedRules: MatchingRuleDTO[];
}

/** One entry of the 400 body of a failed import: `{message:'Validation Failed', errors: ImportValidationError[]}`. */
export interface ImportValidationError {
  message: string;
  property: string;
  path: string;
  argument: unknown;
  schema: unknown;
}

export interface ImportValidationFailure {
  message: 'Validation Failed';
  errors: ImportValidationError[];
}
