/**
 * Export of a node's step results (GET api/nodes/{id}/export-step-result): the route and its form (format,
 * CSV delimiter, date range of at most 31 days) arrive with the documents issue; until then the section
 * says so.
 */
import { useTranslation } from 'react-i18next';

export function StepResultExport({ nodeId }: { nodeId: number }) {
  const { t } = useTranslation();
  return (
    <p className="small text-body-secondary mb-0" data-testid="step-result-export" data-node-id={nodeId}>
      {t('soaApp.nodePanel.export.pending')}
    </p>
  );
}
