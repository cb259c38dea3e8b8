import type { RelationGraphDTO } from '@domain/relations';
import {
  addToDraft,
  arcPath,
  arcsOf,
  graphOfTag,
  relationMatches,
  layoutArcs,
  removalOf,
  removeFromDraft,
  retypeSaved,
  relationCounts,
  unrelatedTagIds,
} from './relations';

const rel = (fromId: number, toId: number, relationTypeId = 1) => ({ fromId, toId, relationTypeId });
const graph = (id: number, relations: ReturnType<typeof rel>[]): RelationGraphDTO => ({
  id,
  documentId: 1,
  stepId: 1,
  nodeId: 1,
  relations: relations.map((r, i) => ({ ...r, id: id * 100 + i, relationGraphId: id })),
});
const graphs = [graph(1, [rel(1, 2), rel(2, 3)]), graph(2, [rel(7, 8)])];

describe('relation drafts', () => {
  it('starts a new graph for unrelated tags, an edit of the graph holding one of them otherwise', () => {
    expect(addToDraft(null, graphs, rel(4, 5))).toEqual({ graphId: null, relations: [rel(4, 5)] });
    expect(addToDraft(null, graphs, rel(5, 3, 2))).toEqual({
      graphId: 1,
      relations: [rel(1, 2), rel(2, 3), rel(5, 3, 2)],
    });
    expect(graphOfTag(graphs, 8)?.id).toBe(2);
  });

  it('adds further links to the open draft, once', () => {
    const d = addToDraft(null, graphs, rel(4, 5));
    const d2 = addToDraft(d, graphs, rel(5, 6));
    expect(d2.relations).toEqual([rel(4, 5), rel(5, 6)]);
    expect(addToDraft(d2, graphs, rel(5, 6))).toBe(d2);
    expect(removeFromDraft(d2, 0).relations).toEqual([rel(5, 6)]);
  });

  it('retypes a saved relation in an edit of its graph', () => {
    expect(retypeSaved(null, graphs[0], 101, 9)).toEqual({
      graphId: 1,
      relations: [rel(1, 2), rel(2, 3, 9)],
    });
    const open = addToDraft(null, graphs, rel(3, 4));
    expect(retypeSaved(open, graphs[0], 100, 9).relations).toEqual([rel(1, 2, 9), rel(2, 3), rel(3, 4)]);
  });

  it('removes a graph with its only relation, else the relation', () => {
    expect(removalOf(graphs[1], 200)).toEqual({ kind: 'graph' });
    expect(removalOf(graphs[0], 100)).toEqual({ kind: 'relation', relations: [rel(2, 3)] });
  });
});

describe('arcs and highlights', () => {
  it('draws the saved relations, and a draft in place of the graph it edits, pending when not saved', () => {
    expect(arcsOf(graphs, null).map((a) => [a.key, a.pending])).toEqual([
      ['r100', false],
      ['r101', false],
      ['r200', false],
    ]);
    const draft = addToDraft(null, graphs, rel(3, 4));
    expect(arcsOf(graphs, draft).map((a) => [a.key, a.graphId, a.pending])).toEqual([
      ['r200', 2, false],
      ['d0', 1, false],
      ['d1', 1, false],
      ['d2', 1, true],
    ]);
    expect(arcsOf([], { graphId: null, relations: [rel(1, 2)] })[0]).toMatchObject({
      pending: true,
      graphId: null,
    });
  });

  it('finds the tags without relation', () => {
    expect([...unrelatedTagIds([1, 2, 3, 4, 8, 9], graphs)]).toEqual([4, 9]);
  });

  it('counts the relations each tag takes part in (a relation of a tag to itself once)', () => {
    const counts = relationCounts([rel(1, 2), rel(2, 3), rel(4, 4)]);
    expect([...counts].sort((a, b) => a[0] - b[0])).toEqual([
      [1, 1],
      [2, 2],
      [3, 1],
      [4, 1],
    ]);
  });

  it('builds an arc rising above the higher end', () => {
    const a = arcPath(0, 100, 100, 100, 20);
    expect(a.d).toBe('M 0 100 C 0 80, 100 80, 100 100');
    expect(a.labelX).toBe(50);
    expect(a.labelY).toBe(85);
    expect(arcPath(0, 100, 50, 60, 10).labelY).toBeLessThan(60);
  });
});

describe('layoutArcs', () => {
  const arc = (key: string, fromId: number, toId: number) => ({
    key,
    fromId,
    toId,
    relationTypeId: 1,
    graphId: 1,
    pending: false,
  });
  const boxes = new Map([
    [1, { x: 0, w: 90, y: 100 }],
    [2, { x: 200, w: 60, y: 100 }],
    [3, { x: 400, w: 60, y: 100 }],
  ]);

  it('spreads the ends over the tag and skips arcs whose tags are not drawn', () => {
    const out = layoutArcs([arc('a', 1, 2), arc('b', 1, 3), arc('c', 1, 9)], boxes, () => 40);
    expect(out.map((o) => o.arc.key)).toEqual(['a', 'b']);
    // two ends on tag 1: at a third and two thirds of its width, the nearer target first
    expect(out[0].d.startsWith('M 30 100')).toBe(true);
    expect(out[1].d.startsWith('M 60 100')).toBe(true);
    // the farther arc rises higher
    expect(out[1].labelY).toBeLessThan(out[0].labelY);
  });

  it('keeps arcs inside the text', () => {
    const low = new Map([
      [1, { x: 0, w: 40, y: 20 }],
      [2, { x: 900, w: 40, y: 20 }],
    ]);
    const [one, two] = layoutArcs([arc('a', 1, 2), arc('b', 2, 1)], low, () => 40);
    expect(one.d).toContain(' 14, '); // the top at LABEL_H, not above
    expect(two.labelY).toBeGreaterThanOrEqual(0);
  });

  it('lifts a label that would overlap an earlier one', () => {
    const twice = layoutArcs([arc('a', 1, 2), arc('b', 2, 1)], boxes, () => 60);
    expect(Math.abs(twice[0].labelY - twice[1].labelY)).toBeGreaterThanOrEqual(10);
  });
});

describe('relationMatches', () => {
  it('finds a part of the type or of a tag text, ignoring case; an empty search keeps all', () => {
    expect(relationMatches('', ['lives in'])).toBe(true);
    expect(relationMatches(' WARS ', ['lives in', 'Anna', 'Warsaw'])).toBe(true);
    expect(relationMatches('acme', ['lives in', 'Anna', 'Warsaw'])).toBe(false);
  });
});
