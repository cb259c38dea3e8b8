import { edgePredicatesHold, edgeNeedsTags, type DocumentTags, type EvalPredicate } from './predicate-eval';

let nextId = 1;
const p = (over: Partial<EvalPredicate> & Pick<EvalPredicate, 'predicateType'>): EvalPredicate => ({
  id: nextId++,
  edgeId: 1,
  parentId: null,
  logicalOperator: null,
  nodeId: null,
  equal: true,
  clfTypeId: null,
  nerTagTypeId: null,
  ...over,
});

const CLF_NODE = 10;
const SPAN_NODE = 20;
const tags: DocumentTags = {
  classifier: [{ nodeId: CLF_NODE, classifierTypeId: 100 }],
  ner: [
    { nodeId: SPAN_NODE, nerTagTypeId: 200 },
    { nodeId: SPAN_NODE, nerTagTypeId: 201 },
  ],
};

describe('edge predicates', () => {
  it('takes an edge without predicates', () => {
    expect(edgePredicatesHold([], tags)).toBe(true);
    expect(edgeNeedsTags([])).toBe(false);
  });

  it('compares a classifier tag of the node with equality', () => {
    expect(edgePredicatesHold([p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: 100 })], tags)).toBe(
      true,
    );
    expect(edgePredicatesHold([p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: 101 })], tags)).toBe(
      false,
    );
    expect(
      edgePredicatesHold([p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: 100, equal: false })], tags),
    ).toBe(false);
    expect(
      edgePredicatesHold([p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: 101, equal: false })], tags),
    ).toBe(true);
    // The same class id under another node does not count.
    expect(edgePredicatesHold([p({ predicateType: 'CLF', nodeId: 11, clfTypeId: 100 })], tags)).toBe(false);
  });

  it('reads the empty classifier option as "no classifier tag of that node"', () => {
    const none = p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: null });
    expect(edgePredicatesHold([none], tags)).toBe(false);
    expect(edgePredicatesHold([none], { classifier: [], ner: [] })).toBe(true);
    expect(edgePredicatesHold([{ ...none, equal: false }], tags)).toBe(true);
    expect(edgePredicatesHold([p({ predicateType: 'CLF', nodeId: 11, clfTypeId: null })], tags)).toBe(true);
  });

  it('compares NER tag types of the node with equality', () => {
    expect(
      edgePredicatesHold([p({ predicateType: 'NER', nodeId: SPAN_NODE, nerTagTypeId: 201 })], tags),
    ).toBe(true);
    expect(
      edgePredicatesHold([p({ predicateType: 'NER', nodeId: SPAN_NODE, nerTagTypeId: 202 })], tags),
    ).toBe(false);
    expect(
      edgePredicatesHold(
        [p({ predicateType: 'NER', nodeId: SPAN_NODE, nerTagTypeId: 202, equal: false })],
        tags,
      ),
    ).toBe(true);
    expect(
      edgePredicatesHold([p({ predicateType: 'NER', nodeId: SPAN_NODE, nerTagTypeId: null })], tags),
    ).toBe(false);
  });

  it('combines children of COMPLEX predicates with AND / OR, nested', () => {
    const or = p({ predicateType: 'COMPLEX', logicalOperator: 'OR' });
    const and = p({ predicateType: 'COMPLEX', logicalOperator: 'AND', parentId: or.id });
    const list = [
      or,
      and,
      p({ predicateType: 'CLF', parentId: and.id, nodeId: CLF_NODE, clfTypeId: 100 }),
      p({ predicateType: 'NER', parentId: and.id, nodeId: SPAN_NODE, nerTagTypeId: 999 }),
      p({ predicateType: 'NER', parentId: or.id, nodeId: SPAN_NODE, nerTagTypeId: 200 }),
    ];
    expect(edgePredicatesHold(list, tags)).toBe(true); // AND false, OR's second child true
    expect(edgePredicatesHold(list, { classifier: tags.classifier, ner: [] })).toBe(false);
    expect(edgePredicatesHold([{ ...or, logicalOperator: 'AND' }, ...list.slice(1)], tags)).toBe(false);
    expect(edgeNeedsTags(list)).toBe(true);
  });

  it('ANDs several top-level predicates and lets an empty group pass', () => {
    const a = p({ predicateType: 'CLF', nodeId: CLF_NODE, clfTypeId: 100 });
    const b = p({ predicateType: 'NER', nodeId: SPAN_NODE, nerTagTypeId: 999 });
    expect(edgePredicatesHold([a, b], tags)).toBe(false);
    expect(edgePredicatesHold([a], tags)).toBe(true);
    expect(edgePredicatesHold([p({ predicateType: 'COMPLEX', logicalOperator: 'OR' })], tags)).toBe(true);
  });

  it('treats a predicate whose parent is gone as top-level and survives a parent cycle', () => {
    const orphan = p({ predicateType: 'CLF', parentId: 12345, nodeId: CLF_NODE, clfTypeId: 101 });
    expect(edgePredicatesHold([orphan], tags)).toBe(false);
    const x = p({ predicateType: 'COMPLEX', logicalOperator: 'AND' });
    const y = p({ predicateType: 'COMPLEX', logicalOperator: 'AND', parentId: x.id });
    x.parentId = y.id;
    expect(edgePredicatesHold([x, y], tags)).toBe(true);
  });
});
