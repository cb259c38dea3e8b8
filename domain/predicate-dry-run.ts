/**
 * A predicate's dry run (issue 29 section 3): before an edited predicate is saved, which of the process's
 * recent documents would take each branch leaving the edge's from-node, with their current tags. The edge's
 * saved predicates with the draft put in (in place of the predicate it edits, or added) are evaluated with
 * the engine's own `edgePredicatesHold` (domain/predicate-eval.ts), per outgoing edge as domain/steps.ts
 * does (a document may take several branches; one that takes none stays at the node).
 *
 * Bounded: the caller passes at most DRY_RUN_MAX_DOCUMENTS documents with only the tags of the nodes the
 * predicates test; the work is linear in documents x (predicates + tags).
 */
import { edgePredicatesHold, type DocumentTags, type EvalPredicate } from './predicate-eval';

export const DRY_RUN_DEFAULT_DOCUMENTS = 1000;
export const DRY_RUN_MAX_DOCUMENTS = 5000;
/** How many documents each branch lists. */
export const DRY_RUN_SAMPLE = 5;

/** The draft's id while it is not saved. */
export const DRAFT_ID = -1;

export interface DryRunDocument {
  id: number;
  name: string;
  tags: DocumentTags;
}

export interface DryRunBranch {
  /** The outgoing edge, or null for "no branch" (the document would stay at the node). */
  edgeId: number | null;
  toNodeId: number | null;
  count: number;
  documents: { id: number; name: string }[];
}

export interface DryRunDTO {
  /** How many documents were evaluated (the process's last N by id). */
  evaluated: number;
  branches: DryRunBranch[];
}

/** The edge's predicates with the draft in place of the one it edits (or added as a new one). */
export function withDraft(saved: readonly EvalPredicate[], draft: EvalPredicate): EvalPredicate[] {
  const id = draft.id > 0 && saved.some((p) => p.id === draft.id) ? draft.id : DRAFT_ID;
  return [...saved.filter((p) => p.id !== id), { ...draft, id }];
}

/** The nodes whose tags the predicates test (what the caller loads for each document). */
export const testedNodeIds = (predicates: readonly EvalPredicate[]): number[] => [
  ...new Set(
    predicates.filter((p) => p.predicateType !== 'COMPLEX' && p.nodeId !== null).map((p) => p.nodeId!),
  ),
];

/** Counts per outgoing edge (by id) and of documents that take none, each with a few documents by id. */
export function dryRun(
  edges: readonly { id: number; toId: number; predicates: readonly EvalPredicate[] }[],
  documents: readonly DryRunDocument[],
  sample = DRY_RUN_SAMPLE,
): DryRunDTO {
  const ordered = [...edges].sort((a, b) => a.id - b.id);
  const branches: DryRunBranch[] = ordered.map((e) => ({
    edgeId: e.id,
    toNodeId: e.toId,
    count: 0,
    documents: [],
  }));
  const none: DryRunBranch = { edgeId: null, toNodeId: null, count: 0, documents: [] };
  const add = (b: DryRunBranch, d: DryRunDocument) => {
    b.count++;
    if (b.documents.length < sample) b.documents.push({ id: d.id, name: d.name });
  };
  for (const d of [...documents].sort((a, b) => a.id - b.id)) {
    let taken = false;
    ordered.forEach((e, i) => {
      if (edgePredicatesHold(e.predicates, d.tags)) {
        add(branches[i], d);
        taken = true;
      }
    });
    if (!taken) add(none, d);
  }
  return { evaluated: documents.length, branches: [...branches, none] };
}
