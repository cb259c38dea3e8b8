/**
 * The label import/export file `{data: [{nerTagType, matchingRules, children}]}` as a JSON Schema, and its
 * ajv validator whose failures are mapped to the 'Validation Failed' entries {message, property, path,
 * argument, schema} the import modal lists. The server and the browser validate with the same function.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { DataFormats, MatchingTypes, type ImportValidationError, type LabelImportFile } from './label-types';
import { LABEL_LIMITS, NER_TAG_NAME_PATTERN_SOURCE } from './labels';
import { TEXT_LIMITS } from './limits';
import { isValidRegex } from './matching-rules';
import { LABEL_HEX_COLOR } from './validation';

const shortcutKey = { type: ['string', 'null'], pattern: '^[a-z]?$' };
const color = {
  type: 'string',
  minLength: 1,
  maxLength: LABEL_LIMITS.color,
  pattern: LABEL_HEX_COLOR.source,
};

export const LABEL_IMPORT_SCHEMA = {
  type: 'object',
  required: ['data'],
  properties: {
    data: { type: 'array', items: { $ref: '#/definitions/entry' } },
  },
  definitions: {
    entry: {
      type: 'object',
      required: ['nerTagType'],
      properties: {
        nerTagType: { $ref: '#/definitions/nerTagType' },
        matchingRules: { type: 'array', items: { $ref: '#/definitions/matchingRule' } },
        children: { type: 'array', items: { $ref: '#/definitions/entry' } },
      },
    },
    nerTagType: {
      type: 'object',
      required: ['name', 'backgroundColor', 'textColor'],
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: LABEL_LIMITS.name,
          pattern: NER_TAG_NAME_PATTERN_SOURCE,
        },
        backgroundColor: color,
        textColor: color,
        mandatory: { type: 'boolean' },
        prefixKey: shortcutKey,
        suffixKey: shortcutKey,
        dataFormat: { enum: [...DataFormats, null] },
        selectable: { type: 'boolean' },
        disabled: { type: 'boolean' },
      },
    },
    matchingRule: {
      type: 'object',
      required: ['expression', 'matchingType'],
      properties: {
        expression: { type: 'string', minLength: 1, maxLength: TEXT_LIMITS.ruleExpression },
        matchingType: { enum: [...MatchingTypes] },
        tolerance: { type: ['integer', 'null'], minimum: 1, maximum: 3 },
      },
      allOf: [
        {
          if: { properties: { matchingType: { const: 'FUZZY' } } },
          then: { required: ['tolerance'], properties: { tolerance: { type: 'integer' } } },
        },
        {
          if: { properties: { matchingType: { const: 'REGEX' } } },
          then: { properties: { expression: { type: 'string', format: 'regex' } } },
        },
      ],
    },
  },
} as const;

/** A small valid file: the import modal's preview while no file is chosen. */
export const LABEL_IMPORT_EXAMPLE: LabelImportFile = {
  data: [
    {
      nerTagType: { name: 'Person', backgroundColor: '#1E88E5', textColor: '#FFFFFF', mandatory: false },
      matchingRules: [{ expression: 'John Smith', matchingType: 'FUZZY', tolerance: 2 }],
      children: [
        {
          nerTagType: { name: 'Surname', backgroundColor: '#43A047', textColor: '#FFFFFF' },
          matchingRules: [{ expression: '[A-Z][a-z]+ski', matchingType: 'REGEX', tolerance: null }],
          children: [],
        },
      ],
    },
  ],
};

/** The validator's ajv options and formats; the web build precompiles with the same (web/vite-precompiled-ajv.mts). */
export const LABEL_IMPORT_AJV_OPTIONS = { allErrors: true, verbose: true, allowUnionTypes: true };
export const LABEL_IMPORT_FORMATS = { regex: isValidRegex };

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv(LABEL_IMPORT_AJV_OPTIONS);
    for (const [name, validate] of Object.entries(LABEL_IMPORT_FORMATS))
      ajv.addFormat(name, { type: 'string', validate });
    compiled = ajv.compile(LABEL_IMPORT_SCHEMA);
  }
  return compiled;
}

/** One ajv error as an entry of the 'Validation Failed' list. */
export function toImportError(e: ErrorObject): ImportValidationError {
  const segments = e.instancePath.split('/').filter((s) => s !== '');
  return {
    message: e.message ?? e.keyword,
    property: segments[segments.length - 1] ?? 'instance',
    path: e.instancePath,
    argument: e.params,
    schema: e.parentSchema ?? e.schema,
  };
}

/** The file's schema violations; an empty list when it can be imported. */
/**
 * The deepest nesting of `children` in an import file, walked without recursion (ajv's own walk recurses,
 * so a file nested thousands deep is refused here before ajv sees it).
 */
function importDepth(value: unknown): { depth: number; path: string } {
  let deepest = { depth: 0, path: '' };
  const data = (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return deepest;
  const stack: [unknown, number, string][] = data.map((e, i) => [e, 1, `data[${i}]`]);
  while (stack.length) {
    const [entry, depth, path] = stack.pop()!;
    if (depth > deepest.depth) deepest = { depth, path };
    if (depth > LABEL_LIMITS.depth) break;
    const children = (entry as { children?: unknown } | null)?.children;
    if (Array.isArray(children))
      children.forEach((c, i) => stack.push([c, depth + 1, `${path}.children[${i}]`]));
  }
  return deepest;
}

export function validateLabelImport(value: unknown): ImportValidationError[] {
  const { depth, path } = importDepth(value);
  if (depth > LABEL_LIMITS.depth)
    return [
      {
        message: `is nested deeper than ${LABEL_LIMITS.depth} levels`,
        property: `instance.${path}`,
        path,
        argument: LABEL_LIMITS.depth,
        schema: 'maxDepth',
      },
    ];
  const validate = validator();
  if (validate(value)) return [];
  // `if` adds a summary error beside the failing `then` keyword; the latter says what is wrong.
  return (validate.errors ?? []).filter((e) => e.keyword !== 'if').map(toImportError);
}

export const isLabelImportFile = (value: unknown): value is LabelImportFile =>
  validateLabelImport(value).length === 0;
