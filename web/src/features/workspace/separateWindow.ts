/**
 * The workspace's separate windows (spec 2 sections 2 and 9): the document preview and the relation graph
 * open 800x600 on routes of their own; when the browser opens no window (a popup blocker), the toast
 * 'Failed to open new window!'.
 */
import type { TFunction } from 'i18next';
import { toast } from '../../components/toast';
import { basePath } from '../../config';
import type { GraphChoice } from './relationFlow';

/** The separate window's size (spec 2 section 9). */
export const SEPARATE_WINDOW_FEATURES = 'width=800,height=600';

/** Opens `url` in the 800x600 window named `name` (reused when open); false when the browser refused. */
export function openSeparateWindow(url: string, name: string, t: TFunction): boolean {
  let opened: Window | null;
  try {
    opened = window.open(url, name, SEPARATE_WINDOW_FEATURES);
  } catch {
    opened = null;
  }
  if (!opened) toast.error(t('workspace.tools.previewPanel.windowFailed'));
  return !!opened;
}

/**
 * The relation graph window's route (./components/RelationsWindowPage.tsx): the document's relations as the
 * step `stepId` sees them, showing a graph (a saved graph's id; none or 'new' shows the first or the draft).
 */
export const relationsWindowUrl = (
  processId: number,
  documentId: number,
  stepId: number,
  choice: GraphChoice | null,
) =>
  `${basePath()}entity/process/${processId}/document/${documentId}/relations?step=${stepId}` +
  (typeof choice === 'number' ? `&graph=${choice}` : '');
