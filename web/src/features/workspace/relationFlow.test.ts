import type { RelationGraphDTO } from '@domain/relations';
import type { NerTagDTO } from '@domain/tags';
import {
  ARROW_LABEL_OFFSET,
  arcsOfChoice,
  arrowGeometry,
  graphOptions,
  relationFlow,
  shownChoice,
  TAG_NODE_WIDTH,
} from './relationFlow';
import { arcsOf, spanTexts, type Draft } from './relations';

const TEXT = 'Anna Kowalska lives in Warsaw and works at Acme.';
const tag = (id: number, needle: string, name: string, backgroundColor: string): NerTagDTO => ({
  id,
  type: 'SPAN_TAG',
  nerTagTypeId: id * 10,
  nerTagType: { id: id * 10, name, backgroundColor, textColor: '#000000' } as NerTagDTO['nerTagType'],
  utteranceTokens: [],
  startOffset: TEXT.indexOf(needle),
  endOffset: TEXT.indexOf(needle) + needle.length,
  tsStart: null,
  tsEnd: null,
  stepId: 1,
  nodeId: 1,
  documentId: 1,
  origin: 'USER',
  createdById: null,
  lastModifiedById: null,
});
const tagsById = new Map([
  [1, tag(1, 'Anna Kowalska', 'Person', '#f8d7da')],
  [2, tag(2, 'Warsaw', 'Place', '#cfe2ff')],
  [3, tag(3, 'Acme', 'Org', '#d1e7dd')],
]);
const typesById = new Map([
  [7, { id: 7, name: 'lives in', color: '#0d6efd' }],
  [8, { id: 8, name: 'works at', color: '#198754' }],
]);
const graph = (id: number, relations: [number, number, number][]): RelationGraphDTO => ({
  id,
  documentId: 1,
  stepId: 1,
  nodeId: 1,
  relations: relations.map(([fromId, toId, relationTypeId], i) => ({
    id: id * 100 + i,
    fromId,
    toId,
    relationTypeId,
    relationGraphId: id,
  })),
});
const saved = [
  graph(5, [
    [1, 2, 7],
    [1, 3, 8],
  ]),
  graph(6, [[3, 2, 7]]),
];

describe('the relation graph chooser', () => {
  it('offers the saved graphs in order, and a new graph while its draft is open', () => {
    expect(graphOptions(saved, null)).toEqual([
      { choice: 5, n: 1, count: 2, draft: false },
      { choice: 6, n: 2, count: 1, draft: false },
    ]);
    const draft: Draft = { graphId: null, relations: [{ fromId: 2, toId: 3, relationTypeId: 8 }] };
    expect(graphOptions(saved, draft).at(-1)).toEqual({ choice: 'new', n: 0, count: 1, draft: true });
    const edit: Draft = { graphId: 6, relations: [] };
    expect(graphOptions(saved, edit)[1]).toEqual({ choice: 6, n: 2, count: 0, draft: true });
  });

  it('shows the graph asked for while it exists, else the draft, else the first graph', () => {
    const options = graphOptions(saved, null);
    expect(shownChoice(options, 6, null)).toBe(6);
    expect(shownChoice(options, 99, null)).toBe(5);
    expect(shownChoice(options, 99, { graphId: 6, relations: [] })).toBe(6);
    expect(shownChoice([], null, null)).toBeNull();
  });

  it("takes a draft's relations in place of the graph it edits", () => {
    const draft: Draft = {
      graphId: 6,
      relations: [
        { fromId: 3, toId: 2, relationTypeId: 7 },
        { fromId: 1, toId: 3, relationTypeId: 8 },
      ],
    };
    const arcs = arcsOf(saved, draft);
    expect(arcsOfChoice(arcs, 6).map((a) => [a.key, a.pending])).toEqual([
      ['d0', false],
      ['d1', true],
    ]);
    expect(arcsOfChoice(arcs, 5).map((a) => a.key)).toEqual(['r500', 'r501']);
    expect(arcsOfChoice(arcs, 'new')).toEqual([]);
    expect(arcsOfChoice(arcs, null)).toEqual([]);
  });
});

describe('the relation graph as a flow', () => {
  const arcs = arcsOfChoice(arcsOf(saved, null), 5);

  it('makes one node per tag with its text and type, and one labelled edge per relation', () => {
    const flow = relationFlow({
      arcs,
      tagsById,
      tagText: spanTexts(TEXT, tagsById),
      typesById,
      selectedTagId: 3,
      selectedKey: 'r500',
    });
    expect(
      flow.nodes.map((n) => [n.id, n.data.text, n.data.typeName, n.data.background, n.selected]),
    ).toEqual([
      ['1', 'Anna Kowalska', 'Person', '#f8d7da', false],
      ['2', 'Warsaw', 'Place', '#cfe2ff', false],
      ['3', 'Acme', 'Org', '#d1e7dd', true],
    ]);
    expect(
      flow.edges.map((e) => [
        e.id,
        e.source,
        e.target,
        e.data!.label,
        e.data!.color,
        e.data!.pending,
        e.selected,
      ]),
    ).toEqual([
      ['r500', '1', '2', 'lives in', '#0d6efd', false, true],
      ['r501', '1', '3', 'works at', '#198754', false, false],
    ]);
  });

  it('lays the graph out left to right: the source before its targets', () => {
    const { nodes } = relationFlow({ arcs, tagsById, tagText: spanTexts(TEXT, tagsById), typesById });
    const x = (id: string) => nodes.find((n) => n.id === id)!.position.x;
    expect(x('2')).toBeGreaterThanOrEqual(x('1') + TAG_NODE_WIDTH);
    expect(x('3')).toBe(x('2'));
    const y = (id: string) => nodes.find((n) => n.id === id)!.position.y;
    expect(y('2')).not.toBe(y('3'));
  });

  it('marks unsaved candidates pending and bends relations between the same tags apart', () => {
    const draft: Draft = {
      graphId: null,
      relations: [
        { fromId: 1, toId: 2, relationTypeId: 7 },
        { fromId: 2, toId: 1, relationTypeId: 8 },
        { fromId: 2, toId: 3, relationTypeId: 99 },
      ],
    };
    const { edges } = relationFlow({
      arcs: arcsOfChoice(arcsOf([], draft), 'new'),
      tagsById,
      tagText: spanTexts(TEXT, tagsById),
      typesById,
    });
    expect(edges.every((e) => e.data!.pending)).toBe(true);
    // an unknown type still has a label and a colour
    expect([edges[2].data!.label, edges[2].data!.color]).toEqual(['#99', '#6c757d']);
    expect(edges[2].data!.bend).toBe(0);
    // 1 -> 2 and 2 -> 1 are drawn on either side of the straight line between the two tags
    const a = { x: 0, y: 0, width: 100, height: 40 };
    const b = { x: 300, y: 0, width: 100, height: 40 };
    const there = arrowGeometry(a, b, edges[0].data!.bend);
    const back = arrowGeometry(b, a, edges[1].data!.bend);
    const straight = arrowGeometry(a, b).labelY;
    expect(Math.sign(there.labelY - straight)).toBe(-Math.sign(back.labelY - straight));
    expect(there.labelY).not.toBe(straight);
  });

  it('shortens a long covered text', () => {
    const long = 'x'.repeat(100);
    const t = { ...tagsById.get(1)!, startOffset: 0, endOffset: 100 };
    const { nodes } = relationFlow({
      arcs: [{ fromId: 1, toId: 2, relationTypeId: 7, key: 'd0', graphId: null, pending: true }],
      tagsById: new Map([
        [1, t],
        [2, tagsById.get(2)!],
      ]),
      tagText: spanTexts(long, new Map([[1, t]])),
      typesById,
    });
    expect(nodes[0].data.text).toHaveLength(40);
    expect(nodes[0].data.text.endsWith('…')).toBe(true);
  });
});

describe('the arrow between two tags', () => {
  const box = (x: number, y: number) => ({ x, y, width: 100, height: 40 });

  it('joins the facing sides when the tags stand more than 50 px apart side by side', () => {
    expect(arrowGeometry(box(0, 0), box(151, 0))).toEqual({
      path: 'M 100 20 Q 125.5 20 151 20',
      labelX: 125.5,
      labelY: 20 - ARROW_LABEL_OFFSET,
    });
    expect(arrowGeometry(box(151, 0), box(0, 0)).path).toBe('M 151 20 Q 125.5 20 100 20');
  });

  it('joins bottom and top when they are closer side by side but more than 5 px apart vertically', () => {
    expect(arrowGeometry(box(0, 0), box(150, 46)).path).toBe('M 50 40 Q 125 43 200 46');
    expect(arrowGeometry(box(0, 46), box(150, 0)).path).toBe('M 50 46 Q 125 43 200 40');
  });

  it('loops over the tops when the tags overlap', () => {
    const g = arrowGeometry(box(0, 0), box(20, 3));
    expect(g.path.startsWith('M 50 0 Q')).toBe(true);
    expect(g.labelY).toBeLessThan(0 - ARROW_LABEL_OFFSET);
  });

  it('bends a parallel relation to one side, its label with it', () => {
    const straight = arrowGeometry(box(0, 0), box(200, 0));
    const bent = arrowGeometry(box(0, 0), box(200, 0), 20);
    expect(bent.labelX).toBe(straight.labelX);
    // left of a left-to-right arrow is up
    expect(bent.labelY).toBe(straight.labelY - 20);
  });
});
