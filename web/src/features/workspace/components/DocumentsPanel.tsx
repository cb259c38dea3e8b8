/**
 * The documents panel. The process's document list (My documents / All documents, Previous and Next) needs
 * the document-info query of the dashboards issue; until then the panel shows the open document.
 */
import { useTranslation } from 'react-i18next';
import type { DocumentStateDTO } from '@domain/document-state-types';
import { userName } from '../model';

export function DocumentsPanel({ state }: { state: DocumentStateDTO }) {
  const { t } = useTranslation();
  const doc = state.document;
  return (
    <div data-testid="documents-panel">
      <h3 className="ws-subtitle">{t('workspace.tools.documentsPanel.current')}</h3>
      <dl className="ws-facts">
        <dt>{t('workspace.tools.documentsPanel.id')}</dt>
        <dd>{doc.id}</dd>
        <dt>{t('workspace.tools.documentsPanel.file')}</dt>
        <dd className="text-break">{doc.filename}</dd>
        <dt>{t('workspace.tools.documentsPanel.status')}</dt>
        <dd>{t(`workspace.documentStatus.${doc.status}`, { defaultValue: doc.status })}</dd>
        <dt>{t('workspace.tools.documentsPanel.assignees')}</dt>
        <dd>
          {state.assignees.length === 0
            ? t('workspace.tools.documentsPanel.noAssignees')
            : state.assignees.map(userName).join(', ')}
        </dd>
      </dl>
      <p className="small text-body-secondary mb-0">{t('workspace.tools.documentsPanel.listNotBuilt')}</p>
    </div>
  );
}
