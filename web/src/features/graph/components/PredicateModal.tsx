/**
 * The edge predicate modal (spec 1): titled 'from -> to', the predicate tree of the edge with its editor,
 * the warning when no previous node can be tested (no CLF, SPAN or LEXICON among the from-node and its
 * ancestors), the dry run of the predicate being edited, and Close / Delete Edge. A refused delete (422 error.graph.noCohesive) is toasted by the
 * client's error mapper and leaves the modal open.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { predicateNodes } from '@domain/graph';
import type { EdgeDTO, NodeDTO, PredicateDTO } from '@domain/graph-types';
import { IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { predicateQueries, useDeleteEdge, useDeletePredicate, useSavePredicate } from '../api';
import { draftOf, newComplexDraft, newSimpleDraft, toInput, type PredicateDraft } from '../predicateDraft';
import { PredicateDryRun } from './PredicateDryRun';
import { PredicateForm } from './PredicateForm';
import { PredicateTree } from './PredicateTree';

export interface PredicateModalProps {
  edge: EdgeDTO;
  nodes: readonly NodeDTO[];
  edges: readonly EdgeDTO[];
  onClose: () => void;
}

export function PredicateModal({ edge, nodes, edges, onClose }: PredicateModalProps) {
  const { t } = useTranslation();
  const predicates = useQuery(predicateQueries.byEdge(edge.id));
  const save = useSavePredicate();
  const remove = useDeletePredicate();
  const deleteEdge = useDeleteEdge();
  const [editing, setEditing] = useState<{ draft: PredicateDraft; key: number } | null>(null);

  const eligible = useMemo(() => predicateNodes({ nodes, edges }, edge), [nodes, edges, edge]);
  const allowed = eligible.length > 0;
  const name = (id: number) => nodes.find((n) => n.id === id)?.name?.trim() || t('soaApp.graph.unknownNode');
  const busy = save.isPending || remove.isPending || deleteEdge.isPending;

  const open = (draft: PredicateDraft) => setEditing({ draft, key: Date.now() });
  const onSave = (draft: PredicateDraft) =>
    save.mutate(toInput(draft, edge.id), { onSuccess: () => setEditing(null) });
  const onDelete = (p: PredicateDTO) =>
    remove.mutate(p.id, {
      onSuccess: () => {
        if (editing?.draft.id === p.id || editing?.draft.parentId === p.id) setEditing(null);
      },
    });

  const editor = editing && (
    <PredicateForm
      key={editing.key}
      initial={editing.draft}
      nodes={eligible}
      pending={save.isPending}
      onSave={onSave}
      onCancel={() => setEditing(null)}
      preview={(draft) => <PredicateDryRun edge={edge} draft={draft} nodeName={name} />}
    />
  );
  const roots = predicates.data ?? [];

  return (
    <Modal
      title={t('soaApp.graph.predicate.title', { from: name(edge.fromId), to: name(edge.toId) })}
      onClose={onClose}
      size="lg"
      testId="predicate-modal"
      closeTestId="predicate-modal-close"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-danger me-auto"
            disabled={busy}
            onClick={() => deleteEdge.mutate(edge.id, { onSuccess: onClose })}
            data-testid="edge-delete"
          >
            {deleteEdge.isPending ? (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ) : (
              <IconTrash className="me-1" />
            )}
            {t('soaApp.graph.predicate.deleteEdge')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={onClose}
            data-testid="predicate-modal-close"
          >
            {t('soaApp.graph.predicate.close')}
          </button>
        </>
      }
    >
      {!allowed && (
        <div className="alert alert-warning py-2" role="alert" data-testid="predicate-not-allowed">
          {t('soaApp.graph.predicate.noPredicates')}
        </div>
      )}
      <div className="d-flex flex-wrap gap-2 mb-3">
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={!allowed || busy}
          onClick={() => open(newComplexDraft(null))}
          data-testid="predicate-add-complex"
        >
          <IconPlus className="me-1" />
          {t('soaApp.graph.predicate.addComplex')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={!allowed || busy}
          onClick={() => open(newSimpleDraft(null))}
          data-testid="predicate-add-simple"
        >
          <IconPlus className="me-1" />
          {t('soaApp.graph.predicate.addSimple')}
        </button>
      </div>
      {predicates.isPending ? (
        <div className="text-center py-3">
          <div
            className="spinner-border spinner-border-sm text-primary"
            role="status"
            aria-label={t('global.common.loading')}
          />
        </div>
      ) : roots.length === 0 && !editing ? (
        <p className="text-body-secondary small mb-0" data-testid="predicate-empty">
          {t('soaApp.graph.predicate.empty')}
        </p>
      ) : (
        <PredicateTree
          predicates={roots}
          editing={editing?.draft ?? null}
          editor={editor}
          disabled={busy}
          onAdd={(parentId, kind) =>
            open(kind === 'COMPLEX' ? newComplexDraft(parentId) : newSimpleDraft(parentId))
          }
          onEdit={(p) => open(draftOf(p))}
          onDelete={onDelete}
        />
      )}
    </Modal>
  );
}
