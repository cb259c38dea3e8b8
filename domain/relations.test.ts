import {
  candidateRelationTypes,
  isCohesive,
  isTypeOrDescendant,
  relatedTagIds,
  relationComponents,
  validateGraph,
  type GraphContext,
  type RelationNode,
  type RelationRuleType,
  type RelationTag,
} from './relations';

// Tag types of node 1: Person(10) > Politician(11) > Minister(12); Place(20); of node 2: Other(30).
const parents = new Map<number, number | null>([
  [10, null],
  [11, 10],
  [12, 11],
  [20, null],
  [30, null],
]);
const node: RelationNode = { id: 1, handlesRelations: true, relationPriorityMode: false };
const node2: RelationNode = { id: 2, handlesRelations: true, relationPriorityMode: false };
const tag = (id: number, nerTagTypeId: number, nodeId = 1): RelationTag => ({ id, nerTagTypeId, nodeId });
const type = (id: number, over: Partial<RelationRuleType> = {}): RelationRuleType => ({
  id,
  nodeId: 1,
  name: `t${id}`,
  priority: 2,
  fromId: null,
  toId: null,
  strict: false,
  merge: false,
  ...over,
});
const ids = (types: RelationRuleType[]) => types.map((t) => t.id);

describe('isTypeOrDescendant', () => {
  it('follows parents up the tree', () => {
    expect(isTypeOrDescendant(parents, 12, 10)).toBe(true);
    expect(isTypeOrDescendant(parents, 10, 10)).toBe(true);
    expect(isTypeOrDescendant(parents, 10, 12)).toBe(false);
    expect(isTypeOrDescendant(parents, 20, 10)).toBe(false);
  });
  it('stops on a cycle', () => {
    const cyclic = new Map<number, number | null>([
      [1, 2],
      [2, 1],
    ]);
    expect(isTypeOrDescendant(cyclic, 1, 3)).toBe(false);
  });
});

describe('candidateRelationTypes', () => {
  const minister = tag(1, 12);
  const person = tag(2, 10);
  const place = tag(3, 20);

  it('offers nothing for tags of different nodes, a node without relations, or the same tag', () => {
    const any = [type(1)];
    expect(candidateRelationTypes(minister, tag(4, 30, 2), node, any, parents)).toEqual([]);
    expect(
      candidateRelationTypes(minister, place, { ...node, handlesRelations: false }, any, parents),
    ).toEqual([]);
    expect(candidateRelationTypes(minister, minister, node, any, parents)).toEqual([]);
    expect(candidateRelationTypes(minister, undefined, node, any, parents)).toEqual([]);
    expect(candidateRelationTypes(minister, place, node2, any, parents)).toEqual([]);
  });

  it('keeps the types of the tags node only', () => {
    expect(
      ids(candidateRelationTypes(minister, place, node, [type(1), type(2, { nodeId: 2 })], parents)),
    ).toEqual([1]);
  });

  it('matches from/to by ancestry; null means any', () => {
    const types = [
      type(1, { fromId: 10, toId: 20 }), // Person -> Place: a Minister is a Person
      type(2, { fromId: 11, toId: null }), // Politician -> any
      type(3, { fromId: 20, toId: 10 }), // Place -> Person: wrong direction
      type(4, { fromId: 12, toId: 20 }),
    ];
    expect(ids(candidateRelationTypes(minister, place, node, types, parents)).sort()).toEqual([1, 2, 4]);
    // a plain Person is not a Politician nor a Minister
    expect(ids(candidateRelationTypes(person, place, node, types, parents))).toEqual([1]);
    expect(ids(candidateRelationTypes(place, person, node, types, parents))).toEqual([3]);
  });

  it('strict wants the exact types', () => {
    const strict = [type(1, { fromId: 10, toId: 20, strict: true })];
    expect(ids(candidateRelationTypes(person, place, node, strict, parents))).toEqual([1]);
    expect(ids(candidateRelationTypes(minister, place, node, strict, parents))).toEqual([]);
    const anyTo = [type(2, { fromId: 10, toId: null, strict: true })];
    expect(ids(candidateRelationTypes(person, minister, node, anyTo, parents))).toEqual([2]);
  });

  it('merge wants the same tag type (matching from)', () => {
    const merge = [type(1, { fromId: 10, toId: 10, merge: true })];
    expect(ids(candidateRelationTypes(person, tag(5, 10), node, merge, parents))).toEqual([1]);
    expect(ids(candidateRelationTypes(minister, tag(5, 12), node, merge, parents))).toEqual([1]);
    expect(ids(candidateRelationTypes(minister, person, node, merge, parents))).toEqual([]);
    expect(ids(candidateRelationTypes(place, tag(6, 20), node, merge, parents))).toEqual([]);
    const strictMerge = [type(2, { fromId: 10, toId: 10, merge: true, strict: true })];
    expect(ids(candidateRelationTypes(minister, tag(5, 12), node, strictMerge, parents))).toEqual([]);
    const anyMerge = [type(3, { merge: true })];
    expect(ids(candidateRelationTypes(place, tag(6, 20), node, anyMerge, parents))).toEqual([3]);
  });

  it('sorts by priority 4..0, then name; priority mode keeps the top priority only', () => {
    const types = [
      type(1, { priority: 2, name: 'b' }),
      type(2, { priority: 4, name: 'z' }),
      type(3, { priority: 0 }),
      type(4, { priority: 4, name: 'a' }),
      type(5, { priority: 3 }),
    ];
    expect(ids(candidateRelationTypes(minister, place, node, types, parents))).toEqual([4, 2, 5, 1, 3]);
    const priorityMode = { ...node, relationPriorityMode: true };
    expect(ids(candidateRelationTypes(minister, place, priorityMode, types, parents))).toEqual([4, 2]);
    // the top of what matches, not of all the node's types
    const low = [type(6, { priority: 1 }), type(7, { priority: 4, fromId: 20 }), type(8, { priority: 1 })];
    expect(ids(candidateRelationTypes(minister, place, priorityMode, low, parents))).toEqual([6, 8]);
  });
});

describe('graphs', () => {
  const ctx: GraphContext = {
    tags: new Map(
      [tag(1, 10), tag(2, 20), tag(3, 10), tag(4, 20), tag(5, 30, 2), tag(6, 30, 2)].map((t) => [t.id, t]),
    ),
    nodes: new Map([
      [1, node],
      [2, node2],
    ]),
    types: new Map(
      [
        type(1, { fromId: 10, toId: 20 }),
        type(2, { fromId: 10, toId: 20, priority: 0 }),
        type(3, { nodeId: 2 }),
      ].map((t) => [t.id, t]),
    ),
    parents,
  };
  const rel = (fromId: number, toId: number, relationTypeId = 1) => ({ fromId, toId, relationTypeId });

  it('finds the connected components', () => {
    expect(relationComponents([rel(1, 2), rel(3, 4), rel(3, 2)])).toEqual([[0, 1, 2]]);
    expect(relationComponents([rel(1, 2), rel(3, 4)])).toEqual([[0], [1]]);
    expect(isCohesive([rel(1, 2), rel(2, 3)])).toBe(true);
    expect(isCohesive([])).toBe(false);
  });

  it('accepts one cohesive graph of allowed relations', () => {
    expect(validateGraph([rel(1, 2), rel(3, 2)], ctx)).toEqual({
      valid: true,
      message: null,
      graphs: [[0, 1]],
    });
  });

  it('refuses a graph that is not connected with error.graph.noCohesive', () => {
    expect(validateGraph([rel(1, 2), rel(3, 4)], ctx)).toEqual({
      valid: false,
      message: 'error.graph.noCohesive',
      graphs: [[0], [1]],
    });
  });

  it('refuses every broken rule with its key', () => {
    const msg = (relations: ReturnType<typeof rel>[], c: GraphContext = ctx) =>
      validateGraph(relations, c).message;
    expect(msg([])).toBe('error.graph.empty');
    expect(msg([rel(1, 99)])).toBe('error.relation.tagNotFound');
    expect(msg([rel(1, 1)])).toBe('error.relation.self');
    expect(msg([rel(1, 5)])).toBe('error.relation.differentNodes');
    expect(msg([rel(2, 1)])).toBe('error.relation.typeNotAllowed'); // Place -> Person
    expect(msg([rel(1, 2, 3)])).toBe('error.relation.typeNotAllowed'); // a type of another node
    expect(msg([rel(1, 2), rel(1, 2)])).toBe('error.relation.duplicate');
    expect(msg([rel(1, 2), rel(5, 6, 3)])).toBe('error.graph.mixedNodes');
    const noRelations = { ...ctx, nodes: new Map([[1, { ...node, handlesRelations: false }]]) };
    expect(msg([rel(1, 2)], noRelations)).toBe('error.relation.nodeNoRelations');
    // priority mode: the lower-priority type is no longer a candidate
    expect(msg([rel(1, 2, 2)])).toBeNull();
    const priorityMode = { ...ctx, nodes: new Map([[1, { ...node, relationPriorityMode: true }]]) };
    expect(msg([rel(1, 2, 2)], priorityMode)).toBe('error.relation.typeNotAllowed');
    expect(msg([rel(1, 2, 1)], priorityMode)).toBeNull();
  });

  it('lists the related tags', () => {
    expect([...relatedTagIds([{ relations: [{ id: 1, relationGraphId: 1, ...rel(1, 2) }] }])].sort()).toEqual(
      [1, 2],
    );
  });
});
