/**
 * The relation types of a span node: a search box filtering by name, each relation with its colour bar,
 * name and 'from label -> to label' (Any for none), and 'Add new relation type' unless read-only.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RelationTypeDTO } from '@domain/label-types';
import { IconPlus, IconSearch } from '../../../components/icons';
import { labelQueries, useDeleteRelationType } from '../api';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { LabelRowActions } from './LabelRowActions';
import { RelationModal } from './RelationModal';
import { DelayedSpinner, LoadError } from './SectionStatus';
import '../labels.css';

export interface RelationsSectionProps {
  nodeId: number;
  readOnly: boolean;
}

type Dialog =
  { kind: 'edit'; relation?: RelationTypeDTO } | { kind: 'delete'; relation: RelationTypeDTO } | null;

export function RelationsSection({ nodeId, readOnly }: RelationsSectionProps) {
  const { t } = useTranslation();
  const relations = useQuery(labelQueries.relationTypes(nodeId));
  const labels = useQuery(labelQueries.nerTagTypes(nodeId));
  const remove = useDeleteRelationType(nodeId);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const allLabels = useMemo(() => labels.data ?? [], [labels.data]);

  const labelName = (id: number | null) =>
    id === null
      ? t('soaApp.labels.relations.any')
      : (allLabels.find((l) => l.id === id)?.name ?? t('soaApp.labels.rules.unknownLabel'));

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = relations.data ?? [];
    return q ? list.filter((r) => r.name.toLowerCase().includes(q)) : list;
  }, [relations.data, search]);

  return (
    <div data-testid="relations" aria-disabled={readOnly || undefined}>
      <div className="labels-toolbar align-items-center">
        <div className="input-group input-group-sm flex-grow-1" style={{ maxWidth: 320 }}>
          <span className="input-group-text">
            <IconSearch size={14} />
          </span>
          <input
            type="search"
            className="form-control"
            value={search}
            placeholder={t('soaApp.labels.relations.search')}
            aria-label={t('soaApp.labels.relations.search')}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="relation-search"
          />
        </div>
        {!readOnly && (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() => setDialog({ kind: 'edit' })}
            data-testid="relation-create"
          >
            <IconPlus className="me-1" />
            {t('soaApp.labels.relations.create')}
          </button>
        )}
      </div>

      {relations.isPending ? (
        <DelayedSpinner />
      ) : relations.isError ? (
        <LoadError onRetry={() => void relations.refetch()} />
      ) : shown.length === 0 ? (
        <div className="labels-empty">
          {search.trim() ? t('soaApp.labels.relations.noMatch') : t('soaApp.labels.relations.empty')}
        </div>
      ) : (
        <ul className="labels-list">
          {shown.map((relation) => (
            <li
              key={relation.id}
              className="labels-row"
              data-testid="relation-row"
              data-relation-id={relation.id}
            >
              <span className="labels-color-bar" style={{ backgroundColor: relation.color }} />
              <div className="labels-row-main">
                <div className="labels-row-name" data-testid="relation-row-name">
                  {relation.name}
                  {relation.merge && (
                    <span className="badge text-bg-light border ms-2">
                      {t('soaApp.labels.relations.kinds.merge')}
                    </span>
                  )}
                  {relation.strict && (
                    <span className="badge text-bg-light border ms-2">
                      {t('soaApp.labels.relations.kinds.strict')}
                    </span>
                  )}
                </div>
                <div className="labels-row-meta" data-testid="relation-row-labels">
                  {labelName(relation.fromId)} → {labelName(relation.toId)}
                </div>
              </div>
              {!readOnly && (
                <LabelRowActions
                  testIdPrefix="relation"
                  onEdit={() => setDialog({ kind: 'edit', relation })}
                  onDelete={() => setDialog({ kind: 'delete', relation })}
                />
              )}
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'edit' && (
        <RelationModal
          nodeId={nodeId}
          relation={dialog.relation}
          labels={allLabels}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          pending={remove.isPending}
          testId="relation-delete-modal"
          onClose={() => setDialog(null)}
          onConfirm={() => remove.mutate(dialog.relation.id, { onSuccess: () => setDialog(null) })}
        >
          {t('soaApp.labels.relations.deleteQuestion', { name: dialog.relation.name })}
        </ConfirmModal>
      )}
    </div>
  );
}
