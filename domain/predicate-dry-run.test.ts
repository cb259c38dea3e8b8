import { dryRun, testedNodeIds, withDraft, DRAFT_ID } from './predicate-dry-run';
import type { EvalPredicate } from './predicate-eval';

const clf = (id: number, edgeId: number, clfTypeId: number | null, equal = true): EvalPredicate => ({
  id,
  edgeId,
  parentId: null,
  predicateType: 'CLF',
  logicalOperator: null,
  nodeId: 7,
  equal,
  clfTypeId,
  nerTagTypeId: null,
});
const tagged = (id: number, classes: number[]) => ({
  id,
  name: `d${id}`,
  tags: { classifier: classes.map((c) => ({ nodeId: 7, classifierTypeId: c })), ner: [] },
});

describe('predicate dry run', () => {
  it('puts the draft in place of the predicate it edits, or adds it', () => {
    const saved = [clf(1, 10, 100)];
    expect(withDraft(saved, clf(1, 10, 200)).map((p) => [p.id, p.clfTypeId])).toEqual([[1, 200]]);
    expect(withDraft(saved, clf(0, 10, 200)).map((p) => [p.id, p.clfTypeId])).toEqual([
      [1, 100],
      [DRAFT_ID, 200],
    ]);
    expect(testedNodeIds(withDraft(saved, clf(0, 10, 200)))).toEqual([7]);
  });

  it('counts the documents taking each branch and those taking none, with a few of each by id', () => {
    const edges = [
      { id: 11, toId: 2, predicates: [clf(1, 11, 100)] },
      { id: 10, toId: 1, predicates: [clf(2, 10, 200)] },
      { id: 12, toId: 3, predicates: [] },
    ];
    const docs = [tagged(5, [100]), tagged(3, [200]), tagged(4, [100]), tagged(6, [])];
    const result = dryRun(edges.slice(0, 2), docs, 1);
    expect(result.evaluated).toBe(4);
    expect(result.branches).toEqual([
      { edgeId: 10, toNodeId: 1, count: 1, documents: [{ id: 3, name: 'd3' }] },
      { edgeId: 11, toNodeId: 2, count: 2, documents: [{ id: 4, name: 'd4' }] },
      { edgeId: null, toNodeId: null, count: 1, documents: [{ id: 6, name: 'd6' }] },
    ]);
    // an edge without predicates is taken by every document: none is left behind
    const all = dryRun(edges, docs);
    expect(all.branches.map((b) => b.count)).toEqual([1, 2, 4, 0]);
  });

  it('negates with equal=false, and the empty option means no tag of the node', () => {
    const docs = [tagged(1, [100]), tagged(2, [])];
    const not100 = dryRun([{ id: 1, toId: 1, predicates: [clf(1, 1, 100, false)] }], docs);
    expect(not100.branches[0].documents.map((d) => d.id)).toEqual([2]);
    const untagged = dryRun([{ id: 1, toId: 1, predicates: [clf(1, 1, null)] }], docs);
    expect(untagged.branches[0].documents.map((d) => d.id)).toEqual([2]);
  });
});
