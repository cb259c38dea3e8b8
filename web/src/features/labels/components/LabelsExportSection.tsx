/** The Export section of node panels: downloads the node's labels as a JSON file. */
import { useTranslation } from 'react-i18next';
import { ExportLabelsButton } from './ExportLabelsButton';
import '../labels.css';

export function LabelsExportSection({ nodeId }: { nodeId: number }) {
  const { t } = useTranslation();
  return (
    <div data-testid="labels-export-section">
      <p className="small text-body-secondary mb-2">{t('soaApp.labels.export.help')}</p>
      <ExportLabelsButton
        nodeId={nodeId}
        className="btn btn-sm btn-outline-primary"
        testId="labels-export-download"
      />
    </div>
  );
}
