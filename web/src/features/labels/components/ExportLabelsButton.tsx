/** Downloads the node's labels (and their matching rules) as the JSON import format; a spinner while busy. */
import { useTranslation } from 'react-i18next';
import { useExportLabels } from '../api';

export interface ExportLabelsButtonProps {
  nodeId: number;
  className?: string;
  testId?: string;
}

export function ExportLabelsButton({ nodeId, className, testId = 'labels-export' }: ExportLabelsButtonProps) {
  const { t } = useTranslation();
  const exporter = useExportLabels(nodeId);
  return (
    <button
      type="button"
      className={className ?? 'btn btn-sm btn-outline-secondary'}
      disabled={exporter.isPending}
      aria-busy={exporter.isPending}
      onClick={() => exporter.mutate()}
      data-testid={testId}
    >
      {exporter.isPending && (
        <span
          className="spinner-border spinner-border-sm me-1"
          role="status"
          aria-label={t('soaApp.labels.export.exporting')}
          data-testid={`${testId}-spinner`}
        />
      )}
      {t('soaApp.labels.export.button')}
    </button>
  );
}
