/**
 * The editor of one predicate inside the predicate modal: a logical operator for a complex predicate; node,
 * equality and label for a simple one (labels of the chosen node: classifier types of a CLF node, NER tag
 * types of a SPAN or LEXICON node), and under them what the modal previews of the draft (its dry run).
 */
import { useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LogicalOperators, type LogicalOperator, type NodeDTO } from '@domain/graph-types';
import { labelQueries } from '../../labels/api';
import {
  EMPTY_LABEL,
  canSave,
  equalityEnabled,
  offersEmptyLabel,
  withNode,
  type PredicateDraft,
} from '../predicateDraft';

export interface PredicateFormProps {
  initial: PredicateDraft;
  /** The edge's previous nodes a predicate may test (CLF, SPAN, LEXICON). */
  nodes: readonly NodeDTO[];
  pending: boolean;
  onSave: (draft: PredicateDraft) => void;
  onCancel: () => void;
  /** Shown under the fields with the draft as it is (the dry run of the modal). */
  preview?: (draft: PredicateDraft) => ReactNode;
}

interface LabelOption {
  id: number;
  name: string;
}

function useLabelOptions(node: NodeDTO | undefined): { options: LabelOption[]; loading: boolean } {
  const isClf = node?.activityType === 'CLF';
  const clf = useQuery({ ...labelQueries.classifierTypes(node?.id ?? 0), enabled: !!node && isClf });
  const ner = useQuery({ ...labelQueries.nerTagTypes(node?.id ?? 0), enabled: !!node && !isClf });
  if (!node) return { options: [], loading: false };
  if (isClf) return { options: clf.data ?? [], loading: clf.isPending };
  return {
    options: (ner.data ?? []).map((n) => ({ id: n.id, name: n.path || n.name })),
    loading: ner.isPending,
  };
}

export function PredicateForm({ initial, nodes, pending, onSave, onCancel, preview }: PredicateFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const node = nodes.find((n) => n.id === draft.nodeId);
  const labels = useLabelOptions(node);
  const complex = draft.predicateType === 'COMPLEX';
  const isNew = draft.id === null;

  const title = complex
    ? t(isNew ? 'soaApp.graph.predicate.newComplex' : 'soaApp.graph.predicate.editComplex')
    : t(isNew ? 'soaApp.graph.predicate.newSimple' : 'soaApp.graph.predicate.editSimple');

  return (
    <form
      className="graph-predicate-form"
      data-testid="predicate-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSave(draft) && !pending) onSave(draft);
      }}
    >
      <div className="graph-predicate-form-title">{title}</div>
      {complex ? (
        <div className="mb-2">
          <label htmlFor={`${id}-op`} className="form-label small mb-1">
            {t('soaApp.graph.predicate.operator')}
          </label>
          <select
            id={`${id}-op`}
            className="form-select form-select-sm"
            value={draft.logicalOperator ?? ''}
            onChange={(e) =>
              setDraft({ ...draft, logicalOperator: (e.target.value || null) as LogicalOperator | null })
            }
            autoFocus
            data-testid="predicate-operator"
          >
            <option value="">{t('soaApp.graph.predicate.operatorPlaceholder')}</option>
            {LogicalOperators.map((op) => (
              <option key={op} value={op}>
                {t(`soaApp.graph.predicate.operators.${op}`)}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div className="row g-2 mb-2">
          <div className="col-sm-5">
            <label htmlFor={`${id}-node`} className="form-label small mb-1">
              {t('soaApp.graph.predicate.node')}
            </label>
            <select
              id={`${id}-node`}
              className="form-select form-select-sm"
              value={draft.nodeId ?? ''}
              onChange={(e) => {
                const next = nodes.find((n) => n.id === Number(e.target.value));
                setDraft(withNode(draft, next?.id ?? null, next?.activityType ?? null));
              }}
              autoFocus
              data-testid="predicate-node"
            >
              <option value="">{t('soaApp.graph.predicate.nodePlaceholder')}</option>
              {nodes.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name} ({t(`soaApp.graph.nodeTypes.${n.activityType}`, { defaultValue: n.activityType })})
                </option>
              ))}
            </select>
          </div>
          <div className="col-sm-3">
            <label htmlFor={`${id}-eq`} className="form-label small mb-1">
              {t('soaApp.graph.predicate.equality')}
            </label>
            <select
              id={`${id}-eq`}
              className="form-select form-select-sm"
              value={draft.equal === null ? '' : String(draft.equal)}
              disabled={!equalityEnabled(draft)}
              onChange={(e) =>
                setDraft({ ...draft, equal: e.target.value === '' ? null : e.target.value === 'true' })
              }
              data-testid="predicate-equality"
            >
              <option value="">{t('soaApp.graph.predicate.equalityPlaceholder')}</option>
              <option value="true">{t('soaApp.graph.predicate.equal')}</option>
              <option value="false">{t('soaApp.graph.predicate.notEqual')}</option>
            </select>
          </div>
          <div className="col-sm-4">
            <label htmlFor={`${id}-label`} className="form-label small mb-1">
              {t('soaApp.graph.predicate.label')}
            </label>
            <select
              id={`${id}-label`}
              className="form-select form-select-sm"
              value={draft.label === null ? '' : String(draft.label)}
              disabled={!node || labels.loading}
              onChange={(e) => {
                const v = e.target.value;
                setDraft({ ...draft, label: v === '' ? null : v === EMPTY_LABEL ? EMPTY_LABEL : Number(v) });
              }}
              data-testid="predicate-label"
            >
              <option value="">
                {labels.loading ? t('global.common.loading') : t('soaApp.graph.predicate.labelPlaceholder')}
              </option>
              {offersEmptyLabel(node) && (
                <option value={EMPTY_LABEL}>{t('soaApp.graph.predicate.emptyLabel')}</option>
              )}
              {labels.options.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
            {node && !labels.loading && labels.options.length === 0 && (
              <div className="form-text" data-testid="predicate-no-labels">
                {t('soaApp.graph.predicate.noLabels')}
              </div>
            )}
          </div>
        </div>
      )}
      {preview?.(draft)}
      <div className="d-flex justify-content-end gap-2 mt-2">
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
          {t('global.common.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-sm btn-primary px-3"
          disabled={!canSave(draft) || pending}
          data-testid="predicate-save"
        >
          {pending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('global.common.save')}
        </button>
      </div>
    </form>
  );
}
