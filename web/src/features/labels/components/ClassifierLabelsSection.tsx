/** The labels of a classifier node: list with colour, description and shortcut keys; create, edit, delete. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ClassifierTypeDTO } from '@domain/label-types';
import { IconPlus } from '../../../components/icons';
import { labelQueries, useDeleteClassifierType } from '../api';
import { ClassifierLabelModal } from './ClassifierLabelModal';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { LabelRowActions } from './LabelRowActions';
import { DelayedSpinner, LoadError } from './SectionStatus';
import '../labels.css';

export interface ClassifierLabelsSectionProps {
  nodeId: number;
  readOnly: boolean;
}

type Dialog =
  { kind: 'edit'; label?: ClassifierTypeDTO } | { kind: 'delete'; label: ClassifierTypeDTO } | null;

export function ClassifierLabelsSection({ nodeId, readOnly }: ClassifierLabelsSectionProps) {
  const { t } = useTranslation();
  const labels = useQuery(labelQueries.classifierTypes(nodeId));
  const remove = useDeleteClassifierType(nodeId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const all = labels.data ?? [];

  return (
    <div data-testid="clf-labels">
      {!readOnly && (
        <div className="labels-toolbar">
          <button
            type="button"
            className="btn btn-sm btn-primary"
            onClick={() => setDialog({ kind: 'edit' })}
            data-testid="clf-label-create"
          >
            <IconPlus className="me-1" />
            {t('global.common.create')}
          </button>
        </div>
      )}
      {labels.isPending ? (
        <DelayedSpinner />
      ) : labels.isError ? (
        <LoadError onRetry={() => void labels.refetch()} />
      ) : all.length === 0 ? (
        <div className="labels-empty">{t('soaApp.labels.common.empty')}</div>
      ) : (
        <ul className="labels-list">
          {all.map((label) => (
            <li key={label.id} className="labels-row" data-testid="clf-label-row" data-label-id={label.id}>
              <span className="labels-color-bar" style={{ backgroundColor: label.backgroundColor }} />
              <div className="labels-row-main">
                <div className="labels-row-name" data-testid="clf-label-row-name">
                  {label.name}
                  {(label.prefixKey || label.suffixKey) && (
                    <span className="ms-2" title={t('soaApp.labels.common.shortcut')}>
                      {[label.prefixKey, label.suffixKey].filter(Boolean).map((k, i) => (
                        <kbd key={i} className="labels-kbd me-1">
                          {k}
                        </kbd>
                      ))}
                    </span>
                  )}
                </div>
                {label.description && <div className="labels-row-meta">{label.description}</div>}
              </div>
              {!readOnly && (
                <LabelRowActions
                  testIdPrefix="clf-label"
                  onEdit={() => setDialog({ kind: 'edit', label })}
                  onDelete={() => setDialog({ kind: 'delete', label })}
                />
              )}
            </li>
          ))}
        </ul>
      )}

      {dialog?.kind === 'edit' && (
        <ClassifierLabelModal
          nodeId={nodeId}
          label={dialog.label}
          all={all}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          pending={remove.isPending}
          testId="clf-label-delete-modal"
          onClose={() => setDialog(null)}
          onConfirm={() => remove.mutate(dialog.label.id, { onSuccess: () => setDialog(null) })}
        >
          {t('soaApp.labels.clf.deleteQuestion', { name: dialog.label.name })}
        </ConfirmModal>
      )}
    </div>
  );
}
