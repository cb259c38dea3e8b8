/**
 * The tools sidebar (spec 2 section 2): an icon column whose toggles open or close the documents, preview
 * and (at the bottom) settings panels, and the open panel, with a title and a close icon, in a sidebar the
 * user resizes by its handle (width in percent, min 20, default 25, kept in local storage). The issues
 * toggle (first, spec 2 section 2) opens the issues panel (the issues dashboard's link opens it with
 * `?panel=issues`, see TextWorkspace, or `?tool=issues&issue={id}`, see hooks/useIssuesTool).
 */
import type { RefObject } from 'react';
import { useRef, type ComponentType, type SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessMode } from '@domain';
import type { DocumentStateDTO } from '@domain/document-state-types';
import { IconClose, IconComment, IconFile, IconGear, IconImage } from '../../../components/icons';
import { useSidebarResize } from '../hooks/useSidebarResize';
import { SIDEBAR_MAX, SIDEBAR_MIN, type UserSettings } from '../settings';
import { DocumentsPanel } from './DocumentsPanel';
import { IssuesPanel } from './IssuesPanel';
import { PreviewPanel } from './PreviewPanel';
import { SettingsPanel } from './SettingsPanel';

export type ToolId = 'issues' | 'documents' | 'preview' | 'settings';
export const TOOL_IDS: readonly ToolId[] = ['issues', 'documents', 'preview', 'settings'];

const TOP_TOOLS: { id: ToolId; icon: ComponentType<SVGProps<SVGSVGElement> & { size?: number }> }[] = [
  { id: 'issues', icon: IconComment },
  { id: 'documents', icon: IconFile },
  { id: 'preview', icon: IconImage },
];

export interface ToolsSidebarProps {
  container: RefObject<HTMLDivElement | null>;
  tool: ToolId | null;
  onTool: (tool: ToolId | null) => void;
  state: DocumentStateDTO;
  userId: number | null;
  processMode: AccessMode | null;
  settings: UserSettings;
  onSaveSettings: (s: UserSettings) => void;
  onClearSettings: () => void;
}

export function ToolsSidebar(props: ToolsSidebarProps) {
  const { t } = useTranslation();
  const { tool, onTool } = props;
  const iconsRef = useRef<HTMLElement>(null);
  const { size, handleProps } = useSidebarResize(props.container, iconsRef);
  const toggle = (id: ToolId) => onTool(tool === id ? null : id);
  const close = () => onTool(null);

  const iconButton = (id: ToolId, Icon: ComponentType<SVGProps<SVGSVGElement> & { size?: number }>) => (
    <button
      key={id}
      type="button"
      className={`ws-icon ${tool === id ? 'active' : ''}`}
      onClick={() => toggle(id)}
      aria-pressed={tool === id}
      title={t(`workspace.tools.${id}`)}
      aria-label={t(`workspace.tools.${id}`)}
      data-testid={`tool-${id}`}
    >
      <Icon size={18} />
    </button>
  );

  return (
    <>
      <nav className="ws-icons" ref={iconsRef} aria-label={t('workspace.tools.label')}>
        {TOP_TOOLS.map((x) => iconButton(x.id, x.icon))}
        <span className="flex-grow-1" />
        {iconButton('settings', IconGear)}
      </nav>
      {tool && (
        <>
          <aside
            className="ws-tools"
            style={{ flexBasis: `${size}%` }}
            data-testid="tools-panel"
            data-tool={tool}
            data-size={size}
          >
            <div className="ws-panel-title">
              <span>{t(`workspace.tools.${tool}`)}</span>
              <button
                type="button"
                className="btn btn-sm btn-link text-body-secondary p-0 ms-auto"
                onClick={close}
                aria-label={t('workspace.tools.close')}
                title={t('workspace.tools.close')}
                data-testid="tools-panel-close"
              >
                <IconClose />
              </button>
            </div>
            <div className="ws-tools-body">
              {tool === 'issues' && (
                <IssuesPanel documentId={props.state.document.id} processMode={props.processMode} />
              )}
              {tool === 'documents' && (
                <DocumentsPanel state={props.state} userId={props.userId} processMode={props.processMode} />
              )}
              {tool === 'preview' && (
                <PreviewPanel
                  documentId={props.state.document.id}
                  processId={props.state.document.processId}
                  onClose={close}
                />
              )}
              {tool === 'settings' && (
                <SettingsPanel
                  settings={props.settings}
                  onSave={props.onSaveSettings}
                  onClear={props.onClearSettings}
                />
              )}
            </div>
          </aside>
          <div
            className="ws-resizer"
            role="separator"
            aria-orientation="vertical"
            aria-label={t('workspace.tools.resize')}
            aria-valuenow={size}
            aria-valuemin={SIDEBAR_MIN}
            aria-valuemax={SIDEBAR_MAX}
            tabIndex={0}
            data-testid="tools-resizer"
            {...handleProps}
          />
        </>
      )}
    </>
  );
}
