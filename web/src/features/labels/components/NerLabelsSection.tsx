/**
 * The labels of a span or lexicon node: optional supported tagging types (span nodes), Create / Import /
 * Export buttons, the label tree, and the create/edit, delete, import and import-result dialogs.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TaggingType } from '@domain/graph-types';
import type { ImportResult, NerTagTypeDTO } from '@domain/label-types';
import { buildTagTree } from '@domain/labels';
import { IconPlus } from '../../../components/icons';
import { labelQueries, useDeleteNerTagType } from '../api';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { ExportLabelsButton } from './ExportLabelsButton';
import { ImportLabelsModal } from './ImportLabelsModal';
import { ImportResultModal } from './ImportResultModal';
import { NerLabelModal } from './NerLabelModal';
import { NerLabelTree } from './NerLabelTree';
import { DelayedSpinner, LoadError } from './SectionStatus';
import { TaggingTypesPicker } from './TaggingTypesPicker';
import '../labels.css';

export interface NerLabelsSectionProps {
  nodeId: number;
  readOnly: boolean;
  /** Show the supported tagging types multi-select with its Save button (span nodes). */
  showTaggingTypes?: boolean;
  supportedTaggingTypes?: readonly TaggingType[];
  onSaveTaggingTypes?: (types: TaggingType[]) => unknown;
}

type Dialog =
  | { kind: 'edit'; label?: NerTagTypeDTO }
  | { kind: 'delete'; label: NerTagTypeDTO }
  | { kind: 'import' }
  | { kind: 'imported'; result: ImportResult }
  | null;

export function NerLabelsSection({
  nodeId,
  readOnly,
  showTaggingTypes,
  supportedTaggingTypes,
  onSaveTaggingTypes,
}: NerLabelsSectionProps) {
  const { t } = useTranslation();
  const labels = useQuery(labelQueries.nerTagTypes(nodeId));
  const remove = useDeleteNerTagType(nodeId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const all = useMemo(() => labels.data ?? [], [labels.data]);
  const tree = useMemo(() => buildTagTree(all), [all]);

  return (
    <div data-testid="ner-labels">
      {showTaggingTypes && (
        <TaggingTypesPicker
          value={supportedTaggingTypes ?? []}
          readOnly={readOnly}
          onSave={onSaveTaggingTypes}
        />
      )}
      <div className="labels-toolbar">
        {!readOnly && (
          <>
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => setDialog({ kind: 'edit' })}
              data-testid="ner-label-create"
            >
              <IconPlus className="me-1" />
              {t('global.common.create')}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => setDialog({ kind: 'import' })}
              data-testid="labels-import"
            >
              {t('soaApp.labels.import.button')}
            </button>
          </>
        )}
        <ExportLabelsButton nodeId={nodeId} />
      </div>

      {labels.isPending ? (
        <DelayedSpinner />
      ) : labels.isError ? (
        <LoadError onRetry={() => void labels.refetch()} />
      ) : tree.length === 0 ? (
        <div className="labels-empty">{t('soaApp.labels.common.empty')}</div>
      ) : (
        <NerLabelTree
          nodes={tree}
          readOnly={readOnly}
          onEdit={(label) => setDialog({ kind: 'edit', label })}
          onDelete={(label) => setDialog({ kind: 'delete', label })}
        />
      )}

      {dialog?.kind === 'edit' && (
        <NerLabelModal nodeId={nodeId} label={dialog.label} all={all} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          pending={remove.isPending}
          testId="ner-label-delete-modal"
          onClose={() => setDialog(null)}
          onConfirm={() => remove.mutate(dialog.label.id, { onSuccess: () => setDialog(null) })}
        >
          <p className="mb-2">{t('soaApp.labels.ner.deleteQuestion', { name: dialog.label.name })}</p>
          <p className="small text-body-secondary mb-0">{t('soaApp.labels.ner.deleteWarning')}</p>
        </ConfirmModal>
      )}
      {dialog?.kind === 'import' && (
        <ImportLabelsModal
          nodeId={nodeId}
          onClose={() => setDialog(null)}
          onImported={(result) => setDialog({ kind: 'imported', result })}
        />
      )}
      {dialog?.kind === 'imported' && (
        <ImportResultModal result={dialog.result} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
