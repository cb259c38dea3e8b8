import { LABEL_IMPORT_EXAMPLE, validateLabelImport } from './label-import-schema';
import {
  NER_TAG_NAME_PATTERN,
  acceptsClassifierTypes,
  acceptsNerTagTypes,
  acceptsRelationTypes,
  buildTagTree,
  classifierTypeNameRule,
  classifierTypeViolations,
  computeTagPaths,
  descendantIds,
  labelColorRule,
  labelDescriptionRule,
  nerTagParentRule,
  nerTagTypeNameRule,
  nerTagTypeViolations,
  normalizeClassifierType,
  normalizeNerTagType,
  normalizeRelationType,
  normalizeShortcutKeys,
  relationLabelRule,
  relationNameRule,
  relationPriorityRule,
  relationTypeViolations,
  shortcutKeyRule,
  writerTagTypeInput,
} from './labels';

const key = (v: { key: string } | null) => v?.key ?? null;

describe('which nodes carry labels', () => {
  it('puts classifier types on CLF, tag types on SPAN and LEXICON, relation types on SPAN only', () => {
    expect(['CLF', 'SPAN', 'LEXICON', 'HUP'].map(acceptsClassifierTypes)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(['CLF', 'SPAN', 'LEXICON', 'HUP'].map(acceptsNerTagTypes)).toEqual([false, true, true, false]);
    expect(['CLF', 'SPAN', 'LEXICON', 'HUP'].map(acceptsRelationTypes)).toEqual([false, true, false, false]);
  });
});

describe('shortcut keys', () => {
  it('accepts an empty key or a single letter a-z', () => {
    for (const v of [null, undefined, '', 'a', 'z']) expect(shortcutKeyRule(v)).toBeNull();
  });
  it('rejects anything else', () => {
    for (const v of ['A', 'ab', '1', ' ', 'ą'])
      expect(key(shortcutKeyRule(v))).toBe('soaApp.label.shortcutKeyError');
  });
  it('clears the prefix key when the suffix key is empty', () => {
    expect(normalizeShortcutKeys({ prefixKey: 'a', suffixKey: '' })).toEqual({
      prefixKey: null,
      suffixKey: null,
    });
    expect(normalizeShortcutKeys({ prefixKey: 'a', suffixKey: 'b' })).toEqual({
      prefixKey: 'a',
      suffixKey: 'b',
    });
    expect(normalizeShortcutKeys({ prefixKey: '', suffixKey: 'b' })).toEqual({
      prefixKey: null,
      suffixKey: 'b',
    });
  });
});

describe('colours and description', () => {
  it('requires a colour no longer than 20 characters', () => {
    expect(key(labelColorRule(''))).toBe('entity.validation.required');
    expect(key(labelColorRule(null))).toBe('entity.validation.required');
    expect(key(labelColorRule('#'.repeat(21)))).toBe('entity.validation.maxlength');
    expect(labelColorRule('#AABBCC')).toBeNull();
    expect(labelColorRule('#abc')).toBeNull();
    for (const bad of ['red', '#12345', '#abcdefa', 'rgb(0,0,0)', '#ggg', '<b>x</b>', '#abc;'])
      expect(key(labelColorRule(bad))).toBe('soaApp.label.colorInvalid');
  });
  it('limits the description to 255 characters', () => {
    expect(labelDescriptionRule('x'.repeat(255))).toBeNull();
    expect(labelDescriptionRule(null)).toBeNull();
    expect(labelDescriptionRule('x'.repeat(256))).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 255 },
    });
  });
});

describe('classifier type name', () => {
  it('is required', () => expect(key(classifierTypeNameRule('  '))).toBe('entity.validation.required'));
  it('is at most 100 characters', () =>
    expect(key(classifierTypeNameRule('a'.repeat(101)))).toBe('entity.validation.maxlength'));
  it('follows the shared text pattern', () => {
    expect(key(classifierTypeNameRule(' lead'))).toBe('textRegexError');
    expect(key(classifierTypeNameRule('a*b'))).toBe('textRegexError');
    expect(classifierTypeNameRule('Invoice type-1')).toBeNull();
  });
  it('is unique among the node’s other classifier types, ignoring case', () => {
    expect(classifierTypeNameRule('Invoice', ['INVOICE'])).toEqual({
      code: 'NotUnique',
      key: 'soaApp.node.nameUniquenessError',
    });
    expect(classifierTypeNameRule('Invoice', ['Receipt'])).toBeNull();
  });
  it('reports every field and normalizes what is saved', () => {
    const v = classifierTypeViolations({
      name: '',
      description: 'x'.repeat(256),
      backgroundColor: '',
      suffixKey: 'A',
    });
    expect(Object.fromEntries(Object.entries(v).map(([f, x]) => [f, key(x)]))).toEqual({
      name: 'entity.validation.required',
      description: 'entity.validation.maxlength',
      backgroundColor: 'entity.validation.required',
      prefixKey: null,
      suffixKey: 'soaApp.label.shortcutKeyError',
    });
    expect(
      normalizeClassifierType({
        name: ' A ',
        description: '',
        backgroundColor: '#000000',
        prefixKey: 'a',
        suffixKey: '',
      }),
    ).toEqual({ name: 'A', description: null, backgroundColor: '#000000', prefixKey: null, suffixKey: null });
  });
});

describe('NER tag type name', () => {
  it('is required and at most 100 characters', () => {
    expect(key(nerTagTypeNameRule(''))).toBe('entity.validation.required');
    expect(key(nerTagTypeNameRule('a'.repeat(101)))).toBe('entity.validation.maxlength');
    expect(nerTagTypeNameRule('a'.repeat(100))).toBeNull();
  });
  it('allows letters, digits, spaces and - _ , ( ) / . only', () => {
    expect(nerTagTypeNameRule('Kwota (PLN), netto/brutto - v1.2_x')).toBeNull();
    expect(nerTagTypeNameRule('Źródło')).toBeNull();
    for (const bad of ['a*b', 'a#', 'a:b', 'a\nb', 'x!'])
      expect(key(nerTagTypeNameRule(bad))).toBe('soaApp.nerTagType.nameRegexError');
  });
  it('is unique per node ignoring case', () => {
    expect(key(nerTagTypeNameRule('Person', ['person']))).toBe('soaApp.node.nameUniquenessError');
  });
  it('refuses a 40,000-character name by its length, and its pattern is linear on such a name', () => {
    const long = 'a '.repeat(20_000) + '!';
    expect(nerTagTypeNameRule(long)).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 100 },
    });
    expect(key(classifierTypeNameRule(long))).toBe('entity.validation.maxlength');
    // The old `[x ]*[x][x ]*` pattern took seconds here (quadratic backtracking); this one is linear.
    expect(NER_TAG_NAME_PATTERN.test('a '.repeat(500_000) + '!')).toBe(false);
    expect(NER_TAG_NAME_PATTERN.test('   ')).toBe(false);
    expect(NER_TAG_NAME_PATTERN.test('  a b ')).toBe(true);
  });
});

describe('NER tag type parent', () => {
  const tree = [
    { id: 1, parentId: null, name: 'A' },
    { id: 2, parentId: 1, name: 'B' },
    { id: 3, parentId: 2, name: 'C' },
    { id: 4, parentId: null, name: 'D' },
  ];
  it('may be absent or any tag type of the node for a new one', () => {
    expect(nerTagParentRule(undefined, null, tree)).toBeNull();
    expect(nerTagParentRule(undefined, 3, tree)).toBeNull();
  });
  it('must be a tag type of the same node', () =>
    expect(key(nerTagParentRule(undefined, 99, tree))).toBe('soaApp.nerTagType.parentInvalid'));
  it('must be neither the tag type itself nor a descendant', () => {
    expect(key(nerTagParentRule(1, 1, tree))).toBe('soaApp.nerTagType.parentCycle');
    expect(key(nerTagParentRule(1, 3, tree))).toBe('soaApp.nerTagType.parentCycle');
    expect(nerTagParentRule(3, 4, tree)).toBeNull();
  });
  it('finds descendants at every depth', () => expect([...descendantIds(1, tree)].sort()).toEqual([2, 3]));
  it('joins the names from the root by arrows', () => {
    expect([...computeTagPaths(tree).entries()]).toEqual([
      [1, 'A'],
      [2, 'A -> B'],
      [3, 'A -> B -> C'],
      [4, 'D'],
    ]);
  });
  it('nests a flat list into roots with children', () => {
    const roots = buildTagTree(tree);
    expect(roots.map((r) => r.id)).toEqual([1, 4]);
    expect(roots[0].children[0].children[0].id).toBe(3);
    expect(roots[1].children).toEqual([]);
  });
  it('reports every field of a tag type and normalizes it', () => {
    const v = nerTagTypeViolations(
      { id: 2, name: 'q', backgroundColor: '#fff', textColor: '', parentId: 3 },
      tree,
    );
    expect(key(v.name)).toBeNull();
    expect(key(v.textColor)).toBe('entity.validation.required');
    expect(key(v.parentId)).toBe('soaApp.nerTagType.parentCycle');
    expect(
      key(nerTagTypeViolations({ name: 'b', backgroundColor: '#fff', textColor: '#000' }, tree).name),
    ).toBe('soaApp.node.nameUniquenessError');
    expect(
      normalizeNerTagType({
        name: ' X ',
        backgroundColor: '#fff',
        textColor: '#000',
        prefixKey: 'a',
        suffixKey: 'b',
      }),
    ).toMatchObject({ name: 'X', parentId: null, prefixKey: 'a', suffixKey: 'b' });
  });
});

describe('what a writer (WRITE, not ADMIN) sets on a NER tag type', () => {
  const current = {
    parentId: 7,
    name: 'Old',
    backgroundColor: '#111111',
    textColor: '#ffffff',
    mandatory: true,
    prefixKey: 'a',
    suffixKey: 'b',
    dataFormat: 'DATE' as const,
    selectable: false,
    disabled: true,
  };
  const asked = {
    name: 'New',
    backgroundColor: '#222222',
    textColor: '#000000',
    parentId: 9,
    mandatory: false,
    prefixKey: 'x',
    suffixKey: null,
    dataFormat: null,
    selectable: true,
    disabled: false,
  };

  it('changes only the name and colours of an existing one', () => {
    expect(writerTagTypeInput(asked, current)).toEqual({
      ...current,
      name: 'New',
      backgroundColor: '#222222',
      textColor: '#000000',
    });
  });

  it('gives a new one its name, colours and parent, and the defaults for the rest', () => {
    expect(writerTagTypeInput(asked, null)).toEqual({
      name: 'New',
      backgroundColor: '#222222',
      textColor: '#000000',
      parentId: 9,
    });
  });
});

describe('relation types', () => {
  it('requires a name (max 100) and a colour', () => {
    expect(key(relationNameRule(''))).toBe('entity.validation.required');
    expect(key(relationNameRule('x'.repeat(101)))).toBe('entity.validation.maxlength');
    expect(relationNameRule('works for')).toBeNull();
  });
  it('takes a priority 0..4', () => {
    expect(relationPriorityRule(0)).toBeNull();
    expect(relationPriorityRule(4)).toBeNull();
    expect(key(relationPriorityRule(5))).toBe('soaApp.nerRelationType.priorityRange');
    expect(key(relationPriorityRule(-1))).toBe('soaApp.nerRelationType.priorityRange');
  });
  it('links tag types of its node or Any', () => {
    expect(relationLabelRule(null, [1])).toBeNull();
    expect(relationLabelRule(1, [1])).toBeNull();
    expect(key(relationLabelRule(2, [1]))).toBe('soaApp.nerRelationType.labelInvalid');
    const v = relationTypeViolations({ name: 'r', color: '#fff', fromId: -1, toId: 9 }, [1]);
    expect([key(v.fromId), key(v.toId), key(v.priority)]).toEqual([
      null,
      'soaApp.nerRelationType.labelInvalid',
      null,
    ]);
  });
  it('turns -1 into Any, defaults the priority to medium, and merge forces to = from', () => {
    expect(normalizeRelationType({ fromId: -1, toId: undefined })).toMatchObject({
      fromId: null,
      toId: null,
      priority: 2,
      strict: false,
      merge: false,
    });
    expect(
      normalizeRelationType({ fromId: 5, toId: 6, merge: true, strict: true, priority: 4 }),
    ).toMatchObject({
      fromId: 5,
      toId: 5,
      merge: true,
      strict: false,
      priority: 4,
    });
  });
});

describe('label import schema', () => {
  it('accepts the example file and an empty file', () => {
    expect(validateLabelImport(LABEL_IMPORT_EXAMPLE)).toEqual([]);
    expect(validateLabelImport({ data: [] })).toEqual([]);
  });
  it('refuses a tree deeper than the limit before ajv walks it (no stack overflow at 100,000 levels)', () => {
    const tree = (levels: number) => {
      let entry: Record<string, unknown> = {
        nerTagType: { name: 'a', backgroundColor: '#fff', textColor: '#000' },
      };
      for (let i = 1; i < levels; i++) entry = { ...entry, children: [entry] };
      return { data: [entry] };
    };
    expect(validateLabelImport(tree(10))).toEqual([]);
    expect(validateLabelImport(tree(11)).map((e) => e.schema)).toEqual(['maxDepth']);
    expect(validateLabelImport(tree(100_000)).map((e) => e.schema)).toEqual(['maxDepth']);
  });
  it('lists each failure with message, property, path, argument and the failing schema', () => {
    const errors = validateLabelImport({
      data: [
        {
          nerTagType: { name: 'bad*name', backgroundColor: '#fff' },
          matchingRules: [
            { expression: 'x', matchingType: 'FUZZY' },
            { expression: '[a-', matchingType: 'REGEX' },
            { expression: 'y', matchingType: 'NOPE' },
          ],
        },
      ],
    });
    const byPath = (p: string) => errors.filter((e) => e.path === p);
    expect(byPath('/data/0/nerTagType')).toEqual([
      expect.objectContaining({
        property: 'nerTagType',
        message: "must have required property 'textColor'",
        argument: { missingProperty: 'textColor' },
        schema: expect.objectContaining({ required: ['name', 'backgroundColor', 'textColor'] }),
      }),
    ]);
    expect(byPath('/data/0/nerTagType/name')[0]).toMatchObject({
      property: 'name',
      argument: expect.any(Object),
    });
    expect(byPath('/data/0/matchingRules/0')[0].argument).toEqual({ missingProperty: 'tolerance' });
    expect(byPath('/data/0/matchingRules/1/expression')[0]).toMatchObject({
      property: 'expression',
      argument: { format: 'regex' },
    });
    expect(byPath('/data/0/matchingRules/2/matchingType')[0].argument).toEqual({
      allowedValues: ['EXACT', 'REGEX', 'FUZZY'],
    });
  });
  it('rejects a file without data', () => {
    expect(validateLabelImport([])[0]).toMatchObject({ property: 'instance', path: '' });
    expect(validateLabelImport({})[0].argument).toEqual({ missingProperty: 'data' });
  });
});
