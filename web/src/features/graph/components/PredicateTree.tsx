/**
 * The predicate tree of an edge: complex predicates show AND / OR and hold children (add a simple or complex
 * child, edit, delete); simple ones read 'node is / is not label'. The editor opens in place: instead of the
 * row it edits, or at the end of the list it adds to.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PredicateDTO } from '@domain/graph-types';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import type { PredicateDraft } from '../predicateDraft';

export interface PredicateTreeProps {
  predicates: readonly PredicateDTO[];
  /** The draft being edited (its id) or added (its parentId), if any. */
  editing: PredicateDraft | null;
  editor: ReactNode;
  disabled: boolean;
  onAdd: (parentId: number, kind: 'COMPLEX' | 'SIMPLE') => void;
  onEdit: (p: PredicateDTO) => void;
  onDelete: (p: PredicateDTO) => void;
}

export function PredicateTree(props: PredicateTreeProps) {
  return <PredicateList {...props} parentId={null} />;
}

function PredicateList(props: PredicateTreeProps & { parentId: number | null }) {
  const { predicates, editing, editor, parentId } = props;
  const adding = editing && editing.id === null && editing.parentId === parentId;
  if (predicates.length === 0 && !adding) return null;
  return (
    <ul className={parentId === null ? 'graph-predicate-tree' : 'graph-predicate-children'}>
      {predicates.map((p) =>
        editing?.id === p.id ? (
          <li key={p.id} className="graph-predicate-item">
            {editor}
          </li>
        ) : (
          <PredicateItem key={p.id} predicate={p} {...props} />
        ),
      )}
      {adding && <li className="graph-predicate-item">{editor}</li>}
    </ul>
  );
}

function PredicateItem({ predicate: p, ...props }: PredicateTreeProps & { predicate: PredicateDTO }) {
  const { t } = useTranslation();
  const { disabled, onAdd, onEdit, onDelete } = props;
  const complex = p.predicateType === 'COMPLEX';
  const label = p.predicateType === 'CLF' ? p.clfTypeName : p.nerTagTypeName;

  return (
    <li className="graph-predicate-item" data-testid="predicate-item" data-predicate-id={p.id}>
      <div className={`graph-predicate-row${complex ? ' is-complex' : ''}`}>
        {complex ? (
          <span
            className={`badge graph-operator op-${p.logicalOperator}`}
            data-testid="predicate-operator-badge"
          >
            {t(`soaApp.graph.predicate.operators.${p.logicalOperator ?? 'AND'}`)}
          </span>
        ) : (
          <span className="graph-predicate-text">
            <span className="badge text-bg-light border me-2">{p.predicateType}</span>
            <strong>{p.nodeName ?? t('soaApp.graph.unknownNode')}</strong>{' '}
            <span className="text-body-secondary">
              {p.equal ? t('soaApp.graph.predicate.equal') : t('soaApp.graph.predicate.notEqual')}
            </span>{' '}
            <span className="graph-predicate-label">{label ?? t('soaApp.graph.predicate.emptyLabel')}</span>
          </span>
        )}
        <span className="graph-predicate-actions">
          {complex && (
            <>
              <button
                type="button"
                className="btn btn-sm btn-link"
                disabled={disabled}
                onClick={() => onAdd(p.id, 'SIMPLE')}
                title={t('soaApp.graph.predicate.addSimpleChild')}
                data-testid="predicate-add-simple-child"
              >
                <IconPlus className="me-1" />
                {t('soaApp.graph.predicate.simple')}
              </button>
              <button
                type="button"
                className="btn btn-sm btn-link"
                disabled={disabled}
                onClick={() => onAdd(p.id, 'COMPLEX')}
                title={t('soaApp.graph.predicate.addComplexChild')}
                data-testid="predicate-add-complex-child"
              >
                <IconPlus className="me-1" />
                {t('soaApp.graph.predicate.complex')}
              </button>
            </>
          )}
          <button
            type="button"
            className="btn btn-sm btn-link"
            disabled={disabled}
            onClick={() => onEdit(p)}
            aria-label={t('global.common.edit')}
            title={t('global.common.edit')}
            data-testid="predicate-edit"
          >
            <IconPencil />
          </button>
          <button
            type="button"
            className="btn btn-sm btn-link text-danger"
            disabled={disabled}
            onClick={() => onDelete(p)}
            aria-label={t('global.common.delete')}
            title={t('global.common.delete')}
            data-testid="predicate-delete"
          >
            <IconTrash />
          </button>
        </span>
      </div>
      {complex && <PredicateList {...props} predicates={p.predicates ?? []} parentId={p.id} />}
    </li>
  );
}
