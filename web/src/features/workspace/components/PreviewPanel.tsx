/**
 * The document preview: the parser's page images (GET api/documents/{id}/images/{index}, the token in the
 * query as media routes take it), a pager and zoom in / out / reset. The panel closes itself when the
 * document has no pages.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthToken } from '../../../api/client';
import { IconChevronLeft, IconChevronRight } from '../../../components/icons';
import { toast } from '../../../components/toast';
import { basePath } from '../../../config';
import { workspaceQueries } from '../api';

const ZOOM_STEP = 0.25;
const ZOOM_MIN = 0.25;
const ZOOM_MAX = 8;

export function PreviewPanel({ documentId, onClose }: { documentId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = useQuery(workspaceQueries.pages(documentId));
  const count = pages.data?.length ?? 0;
  const [index, setIndex] = useState(0);
  const [zoom, setZoom] = useState(1);

  useEffect(() => {
    if (pages.isSuccess && count === 0) {
      toast.info(t('workspace.tools.previewPanel.noPages'));
      onClose();
    }
  }, [pages.isSuccess, count, onClose, t]);

  if (!pages.isSuccess || count === 0) return null;
  const page = Math.min(index, count - 1);
  const src = `${basePath()}api/documents/${documentId}/images/${page}?access_token=${encodeURIComponent(getAuthToken() ?? '')}`;

  return (
    <div className="ws-preview" data-testid="preview-panel">
      <div className="ws-preview-bar">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page === 0}
          onClick={() => setIndex(page - 1)}
          aria-label={t('workspace.tools.previewPanel.previous')}
        >
          <IconChevronLeft />
        </button>
        <span className="small" data-testid="preview-page">
          {t('workspace.tools.previewPanel.page', { page: page + 1, count })}
        </span>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page >= count - 1}
          onClick={() => setIndex(page + 1)}
          aria-label={t('workspace.tools.previewPanel.next')}
        >
          <IconChevronRight />
        </button>
        <span className="ms-auto btn-group">
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom((z) => Math.max(ZOOM_MIN, z - ZOOM_STEP))}
            title={t('workspace.tools.previewPanel.zoomOut')}
          >
            −
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom(1)}
            title={t('workspace.tools.previewPanel.reset')}
          >
            {Math.round(zoom * 100)}%
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom((z) => Math.min(ZOOM_MAX, z + ZOOM_STEP))}
            title={t('workspace.tools.previewPanel.zoomIn')}
          >
            +
          </button>
        </span>
      </div>
      <div className="ws-preview-view">
        <img
          src={src}
          alt={t('workspace.tools.previewPanel.image', { page: page + 1 })}
          className="ws-preview-image"
          style={{ width: `${zoom * 100}%` }}
        />
      </div>
    </div>
  );
}
