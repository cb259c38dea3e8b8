/**
 * The document preview in a window of its own (opened 800x600 from the preview panel):
 * /entity/process/{processId}/document/{documentId}/preview?page={index}, the same viewer (pager, zoom,
 * full screen) filling the window.
 */
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { parseId } from '../model';
import { PreviewPanel } from './PreviewPanel';
import '../workspace.css';

export function PreviewWindowPage() {
  const { t } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const processId = parseId(params.processId);
  const documentId = parseId(params.documentId);
  const page = Number(search.get('page'));
  if (processId === null || documentId === null) return null;
  return (
    <div className="ws-preview-window" data-testid="preview-window">
      <h1 className="visually-hidden">{t('workspace.tools.preview')}</h1>
      <PreviewPanel
        documentId={documentId}
        processId={processId}
        initialPage={Number.isInteger(page) && page >= 0 ? page : 0}
        standalone
      />
    </div>
  );
}
