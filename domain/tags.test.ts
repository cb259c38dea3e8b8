import type { AccessMode } from './enums';
import type { StepState } from './steps';
import {
  breadcrumb,
  buildTagTypeOptions,
  chooseTagStep,
  flattenOptions,
  rootColor,
  ROOT_COLORS,
  spanProblem,
  spanViolations,
  supportsLabelling,
  type OptionTagType,
  roundTagMs,
  timeSpanViolations,
} from './tags';

const keys = (start: number, end: number, content: string) =>
  spanViolations(start, end, content).map((v) => [v.field, v.violation.key]);

describe('the span rule (UTF-16 offsets, end exclusive)', () => {
  const text = 'Ala ma kota.';

  it('accepts any non-empty span inside the content, the whole content included', () => {
    expect(keys(0, 3, text)).toEqual([]);
    expect(keys(0, text.length, text)).toEqual([]);
    expect(keys(text.length - 1, text.length, text)).toEqual([]);
    expect(spanProblem(4, 6, text)).toBeNull();
  });

  it('refuses offsets outside the content', () => {
    expect(keys(-1, 3, text)).toEqual([['startOffset', 'soaApp.nerTag.offsetRange']]);
    expect(keys(0, text.length + 1, text)).toEqual([['endOffset', 'soaApp.nerTag.offsetRange']]);
    expect(keys(text.length, text.length + 2, text)).toEqual([
      ['startOffset', 'soaApp.nerTag.offsetRange'],
      ['endOffset', 'soaApp.nerTag.offsetRange'],
    ]);
    expect(keys(0.5, 2, text)).toEqual([['startOffset', 'soaApp.nerTag.offsetRange']]);
    expect(spanProblem(3, 99, text)).toBe(
      `The tag 3-99 must lie within the document text (0 <= start < end <= ${text.length})`,
    );
  });

  it('refuses an empty or reversed span', () => {
    expect(keys(3, 3, text)).toEqual([['endOffset', 'soaApp.nerTag.offsetOrder']]);
    expect(keys(5, 2, text)).toEqual([['endOffset', 'soaApp.nerTag.offsetOrder']]);
    expect(spanProblem(5, 2, text)).toMatch(/must come after its start/);
  });

  it('refuses any span over empty content', () => {
    expect(keys(0, 1, '')).toEqual([['endOffset', 'soaApp.nerTag.offsetRange']]);
    expect(keys(0, 0, '')).toEqual([['endOffset', 'soaApp.nerTag.offsetRange']]);
  });

  it('counts UTF-16 code units, as the lexicon stores them, and never splits a surrogate pair', () => {
    const emoji = 'a😀b'; // the emoji is two code units: length 4
    expect(emoji.length).toBe(4);
    expect(keys(1, 3, emoji)).toEqual([]);
    expect(keys(0, 4, emoji)).toEqual([]);
    expect(keys(2, 4, emoji)).toEqual([['startOffset', 'soaApp.nerTag.splitCharacter']]);
    expect(keys(0, 2, emoji)).toEqual([['endOffset', 'soaApp.nerTag.splitCharacter']]);
    expect(spanProblem(0, 2, emoji)).toBe('A tag cannot begin or end inside a character.');
    // Polish letters are one code unit each
    expect(keys(0, 6, 'Zażółć')).toEqual([]);
  });
});

describe('the time-span rule (ms, rounded to 2 decimals of a second)', () => {
  it('rounds tag times to 10 ms', () => {
    expect([roundTagMs(1234.4), roundTagMs(1235), roundTagMs(2345.6), roundTagMs(0)]).toEqual([
      1230, 1240, 2350, 0,
    ]);
  });

  it('wants 0 <= start < end <= 48 hours', () => {
    expect(timeSpanViolations(0, 10)).toEqual([]);
    expect(timeSpanViolations(100, 100).map((v) => [v.field, v.violation.key])).toEqual([
      ['tsEnd', 'soaApp.nerTag.timeOrder'],
    ]);
    expect(timeSpanViolations(-10, 100).map((v) => [v.field, v.violation.key])).toEqual([
      ['tsStart', 'soaApp.nerTag.timeRange'],
    ]);
    expect(timeSpanViolations(0, 48 * 3600 * 1000 + 10).map((v) => v.field)).toEqual(['tsEnd']);
    expect(timeSpanViolations(NaN, NaN).map((v) => v.field)).toEqual(['tsStart', 'tsEnd']);
  });
});

describe('which nodes take which labelling type', () => {
  it('lets span and lexicon nodes take text and token tags, no other type', () => {
    expect(supportsLabelling('SPAN', 'SPAN_TAG')).toBe(true);
    expect(supportsLabelling('LEXICON', 'SPAN_TAG')).toBe(true);
    expect(supportsLabelling('LEXICON', 'ASR_NER_TAG')).toBe(true);
    for (const t of ['CLF', 'FILE_PARSER', 'HUP', 'LLM_PROMPT'])
      expect(supportsLabelling(t, 'SPAN_TAG')).toBe(false);
  });
});

describe('the step a tag write goes to', () => {
  const ME = 7;
  const OTHER = 8;
  const as = (nodeMode: AccessMode | null) => ({ userId: ME, nodeMode });
  const step = (over: Partial<StepState>): StepState => ({
    id: 1,
    nodeId: 1,
    status: 'WAITING',
    master: false,
    rejected: false,
    blockedBy: null,
    order: 1,
    errorMessage: null,
    ...over,
  });
  const chosen = (r: ReturnType<typeof chooseTagStep>) => ('step' in r ? r.step.id : r.refusal.code);

  it('takes the step the caller works on', () => {
    const steps = [step({ id: 1, blockedBy: OTHER, master: true }), step({ id: 2, order: 2, blockedBy: ME })];
    expect(chosen(chooseTagStep(steps, as('WRITE'), null))).toBe(2);
    expect(chosen(chooseTagStep(steps, as('ADMIN'), null))).toBe(2);
  });

  it('gives a node admin the master, else the first editable step', () => {
    const steps = [step({ id: 5, order: 2, master: true }), step({ id: 4, order: 1 })];
    expect(chosen(chooseTagStep(steps, as('ADMIN'), null))).toBe(5);
    expect(
      chosen(chooseTagStep([step({ id: 4, order: 1 }), step({ id: 3, order: 3 })], as('ADMIN'), null)),
    ).toBe(4);
  });

  it('lets the caller name one of its editable steps, and nothing else', () => {
    const steps = [step({ id: 1, blockedBy: OTHER }), step({ id: 2, order: 2, blockedBy: ME })];
    expect(chosen(chooseTagStep(steps, as('ADMIN'), null, 1))).toBe(1);
    expect(chosen(chooseTagStep(steps, as('WRITE'), null, 1))).toBe('assignedToOther');
    expect(chosen(chooseTagStep(steps, as('WRITE'), null, 99))).toBe('wrongStep');
  });

  it('says why when there is no editable step', () => {
    expect(chosen(chooseTagStep([], as('ADMIN'), null))).toBe('stepUndefined');
    expect(chosen(chooseTagStep([step({})], as('WRITE'), null))).toBe('notStarted');
    expect(chosen(chooseTagStep([step({ blockedBy: OTHER })], as('WRITE'), null))).toBe('assignedToOther');
    expect(chosen(chooseTagStep([step({ blockedBy: ME })], as('WRITE'), OTHER))).toBe('documentBlocked');
    expect(chosen(chooseTagStep([step({ status: 'DONE', blockedBy: ME })], as('ADMIN'), null))).toBe(
      'notWaiting',
    );
  });
});

describe('the tag-type option tree (spec 2 section 3)', () => {
  const type = (over: Partial<OptionTagType> & { id: number }): OptionTagType => ({
    nodeId: 10,
    parentId: null,
    name: `T${over.id}`,
    backgroundColor: '#112233',
    selectable: true,
    disabled: false,
    ...over,
  });

  it('puts a root per node with id -nodeId, coloured by activity type, its tag types below', () => {
    const tree = buildTagTypeOptions(
      [
        { id: 10, name: 'People', activityType: 'SPAN' },
        { id: 20, name: 'Lexicon', activityType: 'LEXICON' },
      ],
      [
        type({ id: 1, name: 'Person' }),
        type({ id: 2, name: 'Name', parentId: 1 }),
        type({ id: 3, name: 'Place', nodeId: 20, backgroundColor: '#abcdef' }),
      ],
    );
    expect(tree.map((r) => [r.optionId, r.name, r.isRoot, r.selectable, r.backgroundColor])).toEqual([
      [-10, 'People', true, false, ROOT_COLORS.SPAN],
      [-20, 'Lexicon', true, false, ROOT_COLORS.OTHER],
    ]);
    const [person] = tree[0].children;
    expect(person).toMatchObject({
      optionId: 1,
      parentId: -10,
      rootId: -10,
      nodeId: 10,
      path: 'People -> Person',
      selectable: true,
      isRoot: false,
    });
    expect(person.children[0]).toMatchObject({
      optionId: 2,
      parentId: 1,
      rootId: -10,
      path: 'People -> Person -> Name',
    });
    expect(tree[1].children[0]).toMatchObject({ optionId: 3, backgroundColor: '#abcdef', rootId: -20 });
  });

  it('offers only nodes that support the labelling type', () => {
    const tree = buildTagTypeOptions(
      [
        { id: 10, name: 'Classify', activityType: 'CLF' },
        { id: 11, name: 'Parse', activityType: 'FILE_PARSER' },
        { id: 12, name: 'Spans', activityType: 'SPAN' },
      ],
      [],
    );
    expect(tree.map((r) => r.optionId)).toEqual([-12]);
  });

  it('marks disabled and non-selectable types as not selectable, keeps the given order, survives a cycle', () => {
    const tree = buildTagTypeOptions(
      [{ id: 10, name: 'N', activityType: 'SPAN' }],
      [
        type({ id: 5, parentId: 7 }),
        type({ id: 6, disabled: true }),
        type({ id: 7, selectable: false }),
        type({ id: 8, parentId: 9 }),
        type({ id: 9, parentId: 8 }),
      ],
    );
    const flat = flattenOptions(tree);
    expect(flat.map((o) => [o.optionId, o.selectable])).toEqual([
      [-10, false],
      [6, false],
      [7, false],
      [5, true],
      [9, true],
      [8, true],
    ]);
    expect(flat).toHaveLength(6);
  });

  it('colours roots: span amber, file parser blue, anything else red', () => {
    expect(rootColor('SPAN')).toBe(ROOT_COLORS.SPAN);
    expect(rootColor('FILE_PARSER')).toBe(ROOT_COLORS.FILE_PARSER);
    expect(rootColor('LEXICON')).toBe(ROOT_COLORS.OTHER);
  });

  it('shortens a breadcrumb longer than 3 steps with ...->', () => {
    expect(breadcrumb('A -> B -> C')).toBe('A -> B -> C');
    expect(breadcrumb('A -> B -> C -> D')).toBe('...-> B -> C -> D');
    expect(breadcrumb('A')).toBe('A');
  });
});
