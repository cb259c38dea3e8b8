/**
 * The document preview (spec 2 section 2): the parser's page images (GET api/documents/{id}/images/{index},
 * the token in the query as media routes take it), a pager and zoom in / out / reset, and two ways to see it
 * bigger: full screen (the browser's, with a whole-window overlay where the browser refuses it) and a
 * separate 800x600 window on the preview route (./PreviewWindowPage.tsx) at the current page; when the
 * browser does not open the window, the toast 'Failed to open new window!'. In the workspace the panel
 * closes itself when the document has no pages.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthToken } from '../../../api/client';
import {
  IconChevronLeft,
  IconChevronRight,
  IconCompress,
  IconExpand,
  IconExternal,
} from '../../../components/icons';
import { toast } from '../../../components/toast';
import { basePath } from '../../../config';
import { workspaceQueries } from '../api';
import { useFullScreen } from '../hooks/useFullScreen';
import { toolButton as tool } from './ToolButton';
import { openSeparateWindow } from '../separateWindow';

const ZOOM_STEP = 0.25;
const ZOOM_MIN = 0.25;
const ZOOM_MAX = 8;
/** The preview route of a document, at a page (0-based). */
export const previewWindowUrl = (processId: number, documentId: number, page: number) =>
  `${basePath()}entity/process/${processId}/document/${documentId}/preview?page=${page}`;

export interface PreviewPanelProps {
  documentId: number;
  processId: number;
  /** Called when the document has no pages (the workspace closes the panel). */
  onClose?: () => void;
  initialPage?: number;
  /** In the separate window: no button to open another one. */
  standalone?: boolean;
}

export function PreviewPanel({
  documentId,
  processId,
  onClose,
  initialPage = 0,
  standalone = false,
}: PreviewPanelProps) {
  const { t } = useTranslation();
  const pages = useQuery(workspaceQueries.pages(documentId));
  const count = pages.data?.length ?? 0;
  const [index, setIndex] = useState(initialPage);
  const [zoom, setZoom] = useState(1);
  const ref = useRef<HTMLDivElement>(null);
  const { full, enter: enterFull, exit: exitFull } = useFullScreen(() => ref.current);

  useEffect(() => {
    if (pages.isSuccess && count === 0 && onClose) {
      toast.info(t('workspace.tools.previewPanel.noPages'));
      onClose();
    }
  }, [pages.isSuccess, count, onClose, t]);

  if (!pages.isSuccess) return null;
  if (count === 0) {
    return standalone ? (
      <p className="text-body-secondary p-3" data-testid="preview-no-pages">
        {t('workspace.tools.previewPanel.noPages')}
      </p>
    ) : null;
  }
  const page = Math.min(index, count - 1);
  const src = `${basePath()}api/documents/${documentId}/images/${page}?access_token=${encodeURIComponent(getAuthToken() ?? '')}`;

  const openWindow = () =>
    openSeparateWindow(previewWindowUrl(processId, documentId, page), `preview-${documentId}`, t);

  return (
    <div
      ref={ref}
      className={`ws-preview ${full ? 'is-full' : ''} ${standalone ? 'is-standalone' : ''}`}
      data-testid="preview-panel"
      data-full={full}
      data-page={page}
      data-zoom={zoom}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && full) exitFull();
      }}
    >
      <div className="ws-preview-bar">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page === 0}
          onClick={() => setIndex(page - 1)}
          aria-label={t('workspace.tools.previewPanel.previous')}
          data-testid="preview-previous"
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
          data-testid="preview-next"
        >
          <IconChevronRight />
        </button>
        <span className="ms-auto btn-group">
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom((z) => Math.max(ZOOM_MIN, z - ZOOM_STEP))}
            title={t('workspace.tools.previewPanel.zoomOut')}
            data-testid="preview-zoom-out"
          >
            −
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom(1)}
            title={t('workspace.tools.previewPanel.reset')}
            data-testid="preview-zoom-reset"
          >
            {Math.round(zoom * 100)}%
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            onClick={() => setZoom((z) => Math.min(ZOOM_MAX, z + ZOOM_STEP))}
            title={t('workspace.tools.previewPanel.zoomIn')}
            data-testid="preview-zoom-in"
          >
            +
          </button>
        </span>
        <span className="btn-group">
          {full
            ? tool(
                t('workspace.tools.previewPanel.exitFullScreen'),
                exitFull,
                <IconCompress />,
                'preview-exit-full',
              )
            : tool(t('workspace.tools.previewPanel.fullScreen'), enterFull, <IconExpand />, 'preview-full')}
          {!standalone &&
            tool(t('workspace.tools.previewPanel.newWindow'), openWindow, <IconExternal />, 'preview-window')}
        </span>
      </div>
      <div className="ws-preview-view">
        <img
          src={src}
          alt={t('workspace.tools.previewPanel.image', { page: page + 1 })}
          className="ws-preview-image"
          style={{ width: `${zoom * 100}%` }}
          data-testid="preview-image"
        />
      </div>
    </div>
  );
}
