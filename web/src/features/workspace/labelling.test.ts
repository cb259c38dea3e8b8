import type { TagTypeOption } from '@domain/tags';
import {
  breadcrumb,
  clampSpan,
  emptyStack,
  filterOptions,
  findOccurrences,
  inverseOp,
  pushOp,
  remapIds,
  searchKey,
  segmentText,
  takeRedo,
  takeUndo,
  textBlocks,
  trimSpan,
  type TagOp,
} from './labelling';

const opt = (
  optionId: number,
  name: string,
  path: string,
  children: TagTypeOption[] = [],
): TagTypeOption => ({
  optionId,
  name,
  backgroundColor: '#fff',
  children,
  isRoot: optionId < 0,
  parentId: null,
  rootId: -1,
  path,
  selectable: optionId > 0,
  nodeId: 1,
});

describe('textBlocks', () => {
  it('covers the text without gaps, cutting after line breaks', () => {
    const text = 'aaaa\nbbbb\ncccc\n';
    const blocks = textBlocks(text, 3);
    expect(blocks).toEqual([
      { start: 0, end: 5 },
      { start: 5, end: 10 },
      { start: 10, end: 15 },
    ]);
    expect(textBlocks('', 3)).toEqual([]);
  });
  it('cuts a text without line breaks at four times the size, never inside a surrogate pair', () => {
    const text = 'abcdefg\u{1F600}xyz';
    const blocks = textBlocks(text, 2);
    // 4 * 2 = 8 would cut the emoji (units 7 and 8): the block takes its second half too.
    expect(blocks[0]).toEqual({ start: 0, end: 9 });
    expect(blocks[1]).toEqual({ start: 9, end: 12 });
  });
});

describe('segmentText', () => {
  it('cuts at every tag boundary and lists the covering tags outer first', () => {
    const tags = [
      { id: 2, startOffset: 2, endOffset: 4 },
      { id: 1, startOffset: 0, endOffset: 6 },
      { id: 3, startOffset: 5, endOffset: 9 },
    ];
    expect(segmentText(0, 10, tags)).toEqual([
      { start: 0, end: 2, tagIds: [1] },
      { start: 2, end: 4, tagIds: [1, 2] },
      { start: 4, end: 5, tagIds: [1] },
      { start: 5, end: 6, tagIds: [1, 3] },
      { start: 6, end: 9, tagIds: [3] },
      { start: 9, end: 10, tagIds: [] },
    ]);
  });
  it('clips tags to the block and ignores tags outside it', () => {
    const tags = [
      { id: 1, startOffset: 0, endOffset: 12 },
      { id: 2, startOffset: 20, endOffset: 22 },
    ];
    expect(segmentText(10, 15, tags)).toEqual([
      { start: 10, end: 12, tagIds: [1] },
      { start: 12, end: 15, tagIds: [] },
    ]);
  });
});

describe('the menu search', () => {
  const tree = [
    opt(-1, 'Node', 'Node', [
      opt(1, 'Person', 'Node->Person', [opt(2, 'First_name (given)', 'Node->Person->First_name (given)')]),
      opt(3, 'Place', 'Node->Place'),
    ]),
  ];
  it('strips _ " \' , ( ) < > and lower-cases', () => {
    expect(searchKey(`A_b"c'd,e(f)g<h>i`)).toBe('abcdefghi');
  });
  it('shows the tree below 2 characters and matches names from 2', () => {
    expect(filterOptions(tree, 'p').map((r) => [r.option.optionId, r.depth])).toEqual([
      [-1, 0],
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
    expect(filterOptions(tree, 'PL').map((r) => r.option.optionId)).toEqual([3]);
    expect(filterOptions(tree, 'firstname').map((r) => r.option.optionId)).toEqual([2]);
    expect(filterOptions(tree, '(given)').map((r) => r.option.optionId)).toEqual([2]);
    expect(filterOptions(tree, 'Node')).toEqual([]);
  });
  it('shortens a breadcrumb beyond 3 steps', () => {
    expect(breadcrumb('A -> B -> C')).toBe('A -> B -> C');
    expect(breadcrumb('A -> B -> C -> D')).toBe('...-> B -> C -> D');
  });
});

describe('findOccurrences', () => {
  it('finds whole-word occurrences, not overlapping', () => {
    expect(findOccurrences('cat category cat, a cat', 'cat')).toEqual([
      { startOffset: 0, endOffset: 3 },
      { startOffset: 13, endOffset: 16 },
      { startOffset: 20, endOffset: 23 },
    ]);
    expect(findOccurrences('aaaa', 'aa')).toEqual([]);
    expect(findOccurrences('x, y, z', ', ')).toEqual([
      { startOffset: 1, endOffset: 3 },
      { startOffset: 4, endOffset: 6 },
    ]);
    expect(findOccurrences('Łódź i łódź', 'łódź')).toEqual([{ startOffset: 7, endOffset: 11 }]);
    expect(findOccurrences('abc', '')).toEqual([]);
  });
});

describe('spans', () => {
  it('orders and clamps a selection, and trims white space', () => {
    expect(clampSpan(5, 2, 10)).toEqual({ startOffset: 2, endOffset: 5 });
    expect(clampSpan(3, 3, 10)).toBeNull();
    expect(clampSpan(-1, 20, 10)).toEqual({ startOffset: 0, endOffset: 10 });
    expect(trimSpan(' ab ', { startOffset: 0, endOffset: 4 })).toEqual({ startOffset: 1, endOffset: 3 });
    expect(trimSpan('   ', { startOffset: 0, endOffset: 3 })).toBeNull();
  });
});

describe('the undo stack', () => {
  const a = { id: 1, startOffset: 0, endOffset: 2, nerTagTypeId: 7 };
  const b = { id: 2, startOffset: 3, endOffset: 5, nerTagTypeId: 7 };
  it('undoes and redoes in order and drops the redo branch on a new change', () => {
    let s = pushOp(emptyStack, { kind: 'create', tags: [a] });
    s = pushOp(s, { kind: 'delete', tags: [b] });
    const u1 = takeUndo(s)!;
    expect(u1.op.kind).toBe('delete');
    const u2 = takeUndo(u1.stack)!;
    expect(u2.op.kind).toBe('create');
    expect(takeUndo(u2.stack)).toBeNull();
    const r1 = takeRedo(u2.stack)!;
    expect(r1.op.kind).toBe('create');
    const fresh = pushOp(r1.stack, { kind: 'create', tags: [b] });
    expect(takeRedo(fresh)).toBeNull();
    expect(fresh.past).toHaveLength(2);
  });
  it('inverts changes', () => {
    expect(inverseOp({ kind: 'create', tags: [a] })).toEqual({ kind: 'delete', tags: [a] });
    const up: TagOp = { kind: 'update', before: a, after: { ...a, endOffset: 4 } };
    expect(inverseOp(up)).toEqual({ kind: 'update', before: { ...a, endOffset: 4 }, after: a });
  });
  it('renames a re-created tag everywhere on the stack', () => {
    let s = pushOp(emptyStack, { kind: 'update', before: a, after: { ...a, nerTagTypeId: 8 } });
    s = pushOp(s, { kind: 'delete', tags: [a, b] });
    const r = remapIds(s, new Map([[1, 11]]));
    expect(r.past[0]).toEqual({
      kind: 'update',
      before: { ...a, id: 11 },
      after: { ...a, id: 11, nerTagTypeId: 8 },
    });
    expect(r.past[1]).toEqual({ kind: 'delete', tags: [{ ...a, id: 11 }, b] });
  });
});
