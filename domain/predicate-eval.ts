/**
 * Evaluation of edge predicates over a document's tags (spec 1 "predicates", issue 4 section 1): the
 * document workflow follows an edge when its predicates hold. Pure, so it runs inside the workflow sandbox.
 *
 * Decisions:
 * - The top-level predicates of an edge (parentId null) are combined with AND; an edge without predicates is
 *   always taken.
 * - COMPLEX: AND / OR over its children. A COMPLEX predicate without children holds (an unfinished group
 *   never blocks a document).
 * - CLF: "the document has a classifier tag of class clfTypeId from node nodeId" compared with `equal`
 *   (equal=false negates it). The extra empty option of a non-mandatory classifier (clfTypeId null) means
 *   "the document has no classifier tag of that node".
 * - NER: "the document has a NER tag of type nerTagTypeId" (exact type, not its descendants) compared with
 *   `equal`; a null type means "no NER tag of that node" (the same empty option as CLF).
 * - Tags of every step of the node count (a multiprocessed node's steps tag the same document).
 *
 * Runs inside the document workflow (workflows/document.ts, in the workflow bundle; what it decides there:
 * which edges a document takes). A change that alters a decision for a running document must be guarded by `patched()` in the
 * workflow and pass the replay suite (tests/replay/replay.test.ts); see docs/architecture.md.
 */
import type { LogicalOperator, PredicateType } from './graph-types';

export interface EvalPredicate {
  id: number;
  edgeId: number;
  parentId: number | null;
  predicateType: PredicateType;
  logicalOperator: LogicalOperator | null;
  nodeId: number | null;
  equal: boolean;
  clfTypeId: number | null;
  nerTagTypeId: number | null;
}

export interface ClassifierTagRef {
  nodeId: number;
  classifierTypeId: number;
}

export interface NerTagRef {
  /** The node the tag's type belongs to. */
  nodeId: number;
  nerTagTypeId: number;
}

export interface DocumentTags {
  classifier: readonly ClassifierTagRef[];
  ner: readonly NerTagRef[];
}

export const NO_TAGS: DocumentTags = { classifier: [], ner: [] };

function simpleHolds(p: EvalPredicate, tags: DocumentTags): boolean {
  let present: boolean;
  if (p.predicateType === 'CLF') {
    const ofNode = tags.classifier.filter((t) => t.nodeId === p.nodeId);
    present =
      p.clfTypeId === null ? ofNode.length === 0 : ofNode.some((t) => t.classifierTypeId === p.clfTypeId);
  } else {
    const ofNode = tags.ner.filter((t) => t.nodeId === p.nodeId);
    present =
      p.nerTagTypeId === null ? ofNode.length === 0 : ofNode.some((t) => t.nerTagTypeId === p.nerTagTypeId);
  }
  return present === p.equal;
}

/** Whether one predicate holds; `children` gives the direct children of a COMPLEX predicate. */
export function predicateHolds(
  p: EvalPredicate,
  children: (id: number) => readonly EvalPredicate[],
  tags: DocumentTags,
  seen: Set<number> = new Set(),
): boolean {
  if (seen.has(p.id)) return true; // a malformed cycle of parents must not loop forever
  seen.add(p.id);
  if (p.predicateType !== 'COMPLEX') return simpleHolds(p, tags);
  const list = children(p.id);
  if (list.length === 0) return true;
  const results = list.map((c) => predicateHolds(c, children, tags, seen));
  return p.logicalOperator === 'OR' ? results.some(Boolean) : results.every(Boolean);
}

/** Whether an edge with these predicates (all of one edge, any order) is taken for a document's tags. */
export function edgePredicatesHold(predicates: readonly EvalPredicate[], tags: DocumentTags): boolean {
  const byParent = new Map<number, EvalPredicate[]>();
  const ids = new Set(predicates.map((p) => p.id));
  const roots: EvalPredicate[] = [];
  for (const p of predicates) {
    // A predicate whose parent is not in the list (deleted meanwhile) is treated as a root.
    if (p.parentId === null || !ids.has(p.parentId)) roots.push(p);
    else {
      const list = byParent.get(p.parentId);
      if (list) list.push(p);
      else byParent.set(p.parentId, [p]);
    }
  }
  const children = (id: number) => byParent.get(id) ?? [];
  return roots.every((p) => predicateHolds(p, children, tags));
}

/** Whether an edge needs the document's tags at all (edges without predicates do not). */
export const edgeNeedsTags = (predicates: readonly EvalPredicate[]): boolean =>
  predicates.some((p) => p.predicateType !== 'COMPLEX');
