import type { ActivityType } from './enums';
import {
  allowedFollowUps,
  ancestors,
  descendants,
  edgePreviousNodes,
  edgeRefusal,
  hasCycle,
  isCohesive,
  normalizePredicate,
  predicateNodes,
  predicateRules,
  previousNodes,
  unconnectedNodeIds,
  withEdge,
  withoutEdges,
  withoutNode,
  type Graph,
  type PredicateDraft,
} from './graph';

const node = (id: number, activityType: ActivityType, processId = 1) => ({ id, activityType, processId });
const edge = (fromId: number, toId: number) => ({ fromId, toId });

// 1 HUP -> 2 FILE_PARSER -> 3 CLF -> 4 SPAN -> 5 SEND_MAIL; 6 LEXICON isolated; 7 EMAIL_UPLOAD isolated
const flow: Graph<ReturnType<typeof node>> = {
  nodes: [
    node(1, 'HUP'),
    node(2, 'FILE_PARSER'),
    node(3, 'CLF'),
    node(4, 'SPAN'),
    node(5, 'SEND_MAIL'),
    node(6, 'LEXICON'),
    node(7, 'EMAIL_UPLOAD'),
  ],
  edges: [edge(1, 2), edge(2, 3), edge(3, 4), edge(4, 5)],
};
const ids = (list: Iterable<number | { id: number }>) =>
  [...list].map((x) => (typeof x === 'number' ? x : x.id)).sort((a, b) => a - b);

describe('ancestors, descendants and previous nodes', () => {
  it('finds every ancestor and descendant through the whole path', () => {
    expect(ids(ancestors(flow, 4))).toEqual([1, 2, 3]);
    expect(ids(descendants(flow, 2))).toEqual([3, 4, 5]);
    expect(ids(ancestors(flow, 1))).toEqual([]);
    expect(ids(descendants(flow, 6))).toEqual([]);
  });

  it('follows branches and joins', () => {
    const g = {
      nodes: flow.nodes,
      edges: [edge(1, 2), edge(7, 2), edge(2, 3), edge(2, 6), edge(3, 5), edge(6, 5)],
    };
    expect(ids(ancestors(g, 5))).toEqual([1, 2, 3, 6, 7]);
    expect(ids(descendants(g, 2))).toEqual([3, 5, 6]);
  });

  it('gives the previous nodes of a node (all ancestors) and of an edge (from-node included)', () => {
    expect(ids(previousNodes(flow, 4))).toEqual([1, 2, 3]);
    expect(ids(edgePreviousNodes(flow, edge(3, 4)))).toEqual([1, 2, 3]);
  });

  it('keeps only CLF, SPAN and LEXICON previous nodes for predicates', () => {
    expect(ids(predicateNodes(flow, edge(4, 5)))).toEqual([3, 4]);
    expect(predicateNodes(flow, edge(1, 2))).toEqual([]);
  });
});

describe('hasCycle', () => {
  it('is false for a DAG with a diamond', () => {
    expect(hasCycle({ edges: [edge(1, 2), edge(1, 3), edge(2, 4), edge(3, 4)] })).toBe(false);
  });

  it('finds a cycle, including a self-loop', () => {
    expect(hasCycle({ edges: [edge(1, 2), edge(2, 3), edge(3, 1)] })).toBe(true);
    expect(hasCycle({ edges: [edge(5, 5)] })).toBe(true);
  });
});

describe('edgeRefusal', () => {
  it('allows a whitelisted edge to a node outside the ancestors and descendants', () => {
    expect(edgeRefusal(flow, 5, 6)).toBeNull();
    expect(edgeRefusal(flow, 7, 2)).toBeNull();
  });

  it('refuses a self-loop, a duplicate, an upload target, a cycle and a shortcut', () => {
    expect(edgeRefusal(flow, 3, 3)).toBe('selfLoop');
    expect(edgeRefusal(flow, 2, 3)).toBe('duplicate');
    expect(edgeRefusal(flow, 5, 7)).toBe('uploadTarget');
    expect(edgeRefusal(flow, 2, 1)).toBe('uploadTarget');
    expect(edgeRefusal(flow, 4, 2)).toBe('cycle');
    expect(edgeRefusal(flow, 2, 5)).toBe('shortcut');
  });

  it('refuses unknown nodes and nodes of another process', () => {
    expect(edgeRefusal(flow, 1, 99)).toBe('unknownNode');
    const g = { nodes: [node(1, 'HUP', 1), node(2, 'CLF', 2)], edges: [] };
    expect(edgeRefusal(g, 1, 2)).toBe('crossProcess');
  });
});

describe('allowedFollowUps', () => {
  it('offers whitelisted nodes minus itself, its ancestors, descendants and direct targets', () => {
    expect(ids(allowedFollowUps(flow, 3))).toEqual([6]);
    expect(ids(allowedFollowUps(flow, 6))).toEqual([2, 3, 4, 5]);
    expect(ids(allowedFollowUps(flow, 7))).toEqual([2, 3, 4, 5, 6]);
  });

  it('never offers upload-type nodes', () => {
    const g = { nodes: [node(1, 'HUP'), node(2, 'IPR'), node(3, 'GDU_UPLOAD'), node(4, 'CLF')], edges: [] };
    expect(ids(allowedFollowUps(g, 1))).toEqual([4]);
  });
});

describe('isCohesive', () => {
  it('is true without edges and for one connected component', () => {
    expect(isCohesive({ edges: [] })).toBe(true);
    expect(isCohesive(flow)).toBe(true);
  });

  it('allows isolated nodes (they only show a warning)', () => {
    expect(unconnectedNodeIds(flow)).toEqual([6, 7]);
    expect(isCohesive(flow)).toBe(true);
  });

  it('is false when the nodes with edges form two components', () => {
    expect(isCohesive(withEdge(flow, edge(7, 6)))).toBe(false);
  });

  it('treats edges as undirected (two sources joining one node are one component)', () => {
    expect(isCohesive({ edges: [edge(1, 3), edge(2, 3)] })).toBe(true);
  });

  it('detects a split when a middle edge or node is removed, but not a leaf', () => {
    expect(isCohesive(withoutEdges(flow, (e) => e.fromId === 2 && e.toId === 3))).toBe(false);
    expect(isCohesive(withoutNode(flow, 3))).toBe(false);
    expect(isCohesive(withoutNode(flow, 5))).toBe(true);
    expect(isCohesive(withoutEdges(flow, (e) => e.fromId === 4))).toBe(true);
  });

  it('stays cohesive when a removed edge had another path around it', () => {
    const g = { nodes: flow.nodes, edges: [edge(1, 2), edge(2, 3), edge(1, 6), edge(6, 3)] };
    expect(isCohesive(withoutEdges(g, (e) => e.fromId === 2 && e.toId === 3))).toBe(true);
  });
});

describe('predicates', () => {
  const nodes = [
    { id: 3, activityType: 'CLF' as const, mandatory: true },
    { id: 4, activityType: 'SPAN' as const },
    { id: 8, activityType: 'CLF' as const, mandatory: false },
  ];
  const draft = (p: Partial<PredicateDraft>): PredicateDraft =>
    normalizePredicate({ edgeId: 10, predicateType: 'CLF', ...p });
  const keys = (p: PredicateDraft, ctx: Partial<Parameters<typeof predicateRules>[1]> = {}) =>
    predicateRules(p, { nodes, labelIds: [100, 101], ...ctx }).map((v) => [v.field, v.violation.key]);

  it('keeps only the fields of the predicate type', () => {
    expect(
      normalizePredicate({
        edgeId: 1,
        predicateType: 'COMPLEX',
        logicalOperator: 'AND',
        nodeId: 3,
        clfTypeId: 5,
      }),
    ).toEqual({
      edgeId: 1,
      parentId: null,
      predicateType: 'COMPLEX',
      logicalOperator: 'AND',
      nodeId: null,
      equal: true,
      clfTypeId: null,
      nerTagTypeId: null,
    });
    expect(
      normalizePredicate({
        edgeId: 1,
        predicateType: 'NER',
        nodeId: 4,
        clfTypeId: 5,
        nerTagTypeId: 6,
        equal: false,
      }),
    ).toMatchObject({
      clfTypeId: null,
      nerTagTypeId: 6,
      equal: false,
      logicalOperator: null,
    });
  });

  it('accepts a CLF predicate on a CLF previous node with one of its classes', () => {
    expect(keys(draft({ nodeId: 3, clfTypeId: 100 }))).toEqual([]);
  });

  it('needs a logical operator on a COMPLEX predicate', () => {
    expect(keys(draft({ predicateType: 'COMPLEX' }))).toEqual([
      ['logicalOperator', 'entity.validation.required'],
    ]);
    expect(keys(draft({ predicateType: 'COMPLEX', logicalOperator: 'OR' }))).toEqual([]);
  });

  it('needs a node of the right type among the previous nodes', () => {
    expect(keys(draft({ clfTypeId: 100 }))).toEqual([['nodeId', 'entity.validation.required']]);
    expect(keys(draft({ nodeId: 4, clfTypeId: 100 }))).toEqual([['nodeId', 'error.idinvalid']]);
    expect(keys(draft({ nodeId: 99, clfTypeId: 100 }))).toEqual([['nodeId', 'error.idinvalid']]);
    expect(keys(draft({ predicateType: 'NER', nodeId: 3, nerTagTypeId: 100 }))).toEqual([
      ['nodeId', 'error.idinvalid'],
    ]);
  });

  it('needs a label of that node (no class is allowed for a non-mandatory classifier only)', () => {
    expect(keys(draft({ nodeId: 3, clfTypeId: 999 }))).toEqual([['clfTypeId', 'error.idinvalid']]);
    expect(keys(draft({ nodeId: 3 }))).toEqual([['clfTypeId', 'entity.validation.required']]);
    expect(keys(draft({ nodeId: 8 }))).toEqual([]);
    expect(keys(draft({ predicateType: 'NER', nodeId: 4 }))).toEqual([
      ['nerTagTypeId', 'entity.validation.required'],
    ]);
    expect(keys(draft({ predicateType: 'NER', nodeId: 4, nerTagTypeId: 101 }))).toEqual([]);
  });

  it('needs a COMPLEX parent on the same edge that is not the predicate itself or below it', () => {
    const p = draft({ nodeId: 3, clfTypeId: 100, parentId: 50 });
    expect(keys(p, { parent: { id: 50, edgeId: 10, predicateType: 'COMPLEX' } })).toEqual([]);
    expect(keys(p, { parent: null })).toEqual([['parentId', 'error.idinvalid']]);
    expect(keys(p, { parent: { id: 50, edgeId: 11, predicateType: 'COMPLEX' } })).toEqual([
      ['parentId', 'error.idinvalid'],
    ]);
    expect(keys(p, { parent: { id: 50, edgeId: 10, predicateType: 'CLF' } })).toEqual([
      ['parentId', 'error.idinvalid'],
    ]);
    expect(
      keys(p, { parent: { id: 50, edgeId: 10, predicateType: 'COMPLEX' }, ownSubtreeIds: [40, 50] }),
    ).toEqual([['parentId', 'error.idinvalid']]);
  });
});
