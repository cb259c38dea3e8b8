/**
 * The predicate editor's draft and its form rules (spec 1 "Edge predicate modal", section 4): a node change
 * resets the label and switches the type (CLF for classifier nodes, NER otherwise); the equality picker is
 * enabled only for CLF and NER; Save needs node, label and equality (complex: a logical operator). The
 * server's own checks (eligible node, label of that node, parent) live in the API.
 */
import type { ActivityType } from '@domain';
import type { LogicalOperator, PredicateDTO, PredicateInput, PredicateType } from '@domain/graph-types';

/** The label value of the extra empty option a non-mandatory classifier node offers. */
export const EMPTY_LABEL = 'empty' as const;

export interface PredicateDraft {
  id: number | null;
  parentId: number | null;
  predicateType: PredicateType | null;
  logicalOperator: LogicalOperator | null;
  nodeId: number | null;
  equal: boolean | null;
  /** A classifier type id (CLF), a NER tag type id (NER), EMPTY_LABEL, or null while unset. */
  label: number | typeof EMPTY_LABEL | null;
}

export const newComplexDraft = (parentId: number | null): PredicateDraft => ({
  id: null,
  parentId,
  predicateType: 'COMPLEX',
  logicalOperator: null,
  nodeId: null,
  equal: null,
  label: null,
});

/** A new simple predicate: its type (CLF or NER) follows from the node chosen. */
export const newSimpleDraft = (parentId: number | null): PredicateDraft => ({
  id: null,
  parentId,
  predicateType: null,
  logicalOperator: null,
  nodeId: null,
  equal: null,
  label: null,
});

export function draftOf(p: PredicateDTO): PredicateDraft {
  return {
    id: p.id,
    parentId: p.parentId,
    predicateType: p.predicateType,
    logicalOperator: p.logicalOperator,
    nodeId: p.nodeId,
    equal: p.predicateType === 'COMPLEX' ? null : p.equal,
    label:
      p.predicateType === 'CLF'
        ? (p.clfTypeId ?? EMPTY_LABEL)
        : p.predicateType === 'NER'
          ? p.nerTagTypeId
          : null,
  };
}

export const isSimpleDraft = (d: PredicateDraft) => d.predicateType !== 'COMPLEX';

/** The predicate type a simple predicate on a node of this type has. */
export const simpleTypeFor = (nodeType: ActivityType): PredicateType => (nodeType === 'CLF' ? 'CLF' : 'NER');

/** Choosing another node resets the label and switches the type. */
export function withNode(
  draft: PredicateDraft,
  nodeId: number | null,
  nodeType: ActivityType | null,
): PredicateDraft {
  return {
    ...draft,
    nodeId,
    predicateType: nodeType ? simpleTypeFor(nodeType) : null,
    label: null,
  };
}

export const equalityEnabled = (d: PredicateDraft) => d.predicateType === 'CLF' || d.predicateType === 'NER';

/** Whether the extra empty label option is offered: classifier nodes that are not mandatory. */
export const offersEmptyLabel = (node: { activityType: ActivityType; mandatory: boolean } | undefined) =>
  !!node && node.activityType === 'CLF' && !node.mandatory;

export function canSave(d: PredicateDraft): boolean {
  if (d.predicateType === 'COMPLEX') return d.logicalOperator !== null;
  return d.predicateType !== null && d.nodeId !== null && d.label !== null && d.equal !== null;
}

/** The body of POST / PUT /api/predicates. */
export function toInput(d: PredicateDraft, edgeId: number): PredicateInput {
  const base = { id: d.id ?? undefined, edgeId, parentId: d.parentId };
  if (d.predicateType === 'COMPLEX') {
    return { ...base, predicateType: 'COMPLEX', logicalOperator: d.logicalOperator };
  }
  const labelId = d.label === EMPTY_LABEL ? null : d.label;
  return {
    ...base,
    predicateType: d.predicateType!,
    nodeId: d.nodeId,
    equal: d.equal ?? true,
    clfTypeId: d.predicateType === 'CLF' ? labelId : null,
    nerTagTypeId: d.predicateType === 'NER' ? labelId : null,
  };
}
