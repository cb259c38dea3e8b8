import {
  checkState,
  legendRows,
  legendTree,
  tagListRows,
  toggleNode,
  type LegendNode,
  type LegendTag,
} from './legend';

const tag = (id: number, typeId: number, path: string, s: number, e: number, nodeId = 1): LegendTag => ({
  id,
  startOffset: s,
  endOffset: e,
  nerTagTypeId: typeId,
  nerTagType: { name: path.split(' -> ').at(-1)!, backgroundColor: `#00000${typeId}`, nodeId, path },
});

const TEXT = 'Anna Kowalska met Jan Nowak in Warsaw.';
// Person (10) with children First_name (11) and Last_name (12); Place (20); a Person tag of its own.
const TAGS = [
  tag(1, 11, 'Person -> First_name', 0, 4),
  tag(2, 12, 'Person -> Last_name', 5, 13),
  tag(3, 11, 'Person -> First_name', 18, 21),
  tag(4, 10, 'Person', 18, 27),
  tag(5, 20, 'Place', 31, 37),
];

const find = (tree: LegendNode[], name: string) => legendRows(tree).find((r) => r.node.name === name)!.node;

describe('legendTree', () => {
  it('builds the tree of the types present from their paths, children by name, with counts', () => {
    const rows = legendRows(legendTree(TAGS)).map((r) => [r.depth, r.node.name, r.node.typeId, r.node.count]);
    expect(rows).toEqual([
      [0, 'Person', 10, 4],
      [1, 'First_name', 11, 2],
      [1, 'Last_name', 12, 1],
      [0, 'Place', 20, 1],
    ]);
    expect(find(legendTree(TAGS), 'Person').typeIds.sort()).toEqual([10, 11, 12]);
  });
  it('shows a parent without tags of its own, and keeps the types of different nodes apart', () => {
    const tree = legendTree([tag(1, 11, 'Person -> First_name', 0, 4), tag(2, 31, 'Person', 5, 9, 2)]);
    expect(tree.map((n) => [n.key, n.typeId, n.typeIds])).toEqual([
      ['1:Person', null, [11]],
      ['2:Person', 31, [31]],
    ]);
    expect(tree[0].children.map((c) => c.name)).toEqual(['First_name']);
  });
});

describe('checkState and toggleNode', () => {
  const tree = legendTree(TAGS);
  const person = find(tree, 'Person');
  const last = find(tree, 'Last_name');
  it('derives a parent from its children: checked, indeterminate, unchecked', () => {
    expect(checkState(person, new Set())).toBe('checked');
    expect(checkState(person, new Set([12]))).toBe('indeterminate');
    expect(checkState(person, new Set([10, 11, 12]))).toBe('unchecked');
    expect(checkState(last, new Set([12]))).toBe('unchecked');
  });
  it('toggles a checked parent off with all its children, any other parent on with all of them', () => {
    expect([...toggleNode(person, new Set([20]))].sort()).toEqual([10, 11, 12, 20]);
    expect([...toggleNode(person, new Set([12, 20]))]).toEqual([20]);
    expect([...toggleNode(person, new Set([10, 11, 12]))]).toEqual([]);
    expect([...toggleNode(last, new Set())]).toEqual([12]);
    expect(checkState(person, toggleNode(last, new Set()))).toBe('indeterminate');
  });
});

describe('tagListRows', () => {
  it('lists every tag in text order when the query is blank', () => {
    expect(tagListRows(TAGS, TEXT, ' ').map((r) => r.id)).toEqual([1, 2, 4, 3, 5]);
    expect(tagListRows(TAGS, TEXT, '')[0]).toEqual({
      id: 1,
      typeName: 'First_name',
      color: '#0000011',
      startOffset: 0,
      endOffset: 4,
      excerpt: 'Anna',
    });
  });
  it('filters by a case-insensitive prefix of the type name or the text, or of one of their words', () => {
    expect(tagListRows(TAGS, TEXT, 'pla').map((r) => r.id)).toEqual([5]);
    expect(tagListRows(TAGS, TEXT, 'WAR').map((r) => r.id)).toEqual([5]);
    expect(tagListRows(TAGS, TEXT, 'nowak').map((r) => r.id)).toEqual([4]);
    expect(tagListRows(TAGS, TEXT, 'name').map((r) => r.id)).toEqual([1, 2, 3]);
    // Not a prefix: no match inside a word.
    expect(tagListRows(TAGS, TEXT, 'owal')).toEqual([]);
  });
  it('cuts long texts in the excerpt', () => {
    const long = 'x'.repeat(100);
    expect(tagListRows([tag(1, 1, 'A', 0, 100)], long, '')[0].excerpt).toBe(`${'x'.repeat(60)}…`);
  });
});
