/**
 * The frame both workspaces share (spec 2 section 2): the header, the icon column with the resizable tools
 * sidebar, the main column with the mode bar, and the step sidebar. Holds the step the user chose, the open tool panel (`?panel=issues` opens one
 * once), 'Show hidden tokens' (also the h key, outside text fields), 'Highlight tags without relation' and the
 * user settings (applied as CSS variables); the workspace inside gets them through `children`.
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { AccessMode } from '@domain';
import type { DocumentStateDTO, StepDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { focusContent } from '../../../components/focusContent';
import { useIssuesTool } from '../hooks/useIssuesTool';
import { useStepLabels, type StepLabels } from '../hooks/useLabelHotkeys';
import { useStepAccess } from '../hooks/useStepAccess';
import { useSessionState } from '../hooks/useSessionState';
import { useUserSettings } from '../hooks/useUserSettings';
import { followsApiAfter, processingModeOf, resolveSelectedStep, type ProcessingMode } from '../model';
import { settingsCssVariables, type UserSettings } from '../settings';
import { LackContentModal } from './LackContentModal';
import { typing } from '../typing';
import { ShortcutsOverlay, type WorkspaceKind } from './ShortcutsOverlay';
import { StepSidebar } from './StepSidebar';
import { TOOL_IDS, ToolsSidebar, type ToolId } from './ToolsSidebar';
import { WorkspaceHeader } from './WorkspaceHeader';

export { typing };

/** The main column while the document loads, the step is absent or the step is PROCESSING (spec 2 section 2). */
export function StepLoading({ step }: { step: StepDTO | null }) {
  const { t } = useTranslation();
  return (
    <div className="ws-center">
      <DelayedSpinner
        label={t(step?.status === 'PROCESSING' ? 'workspace.processing' : 'workspace.loading')}
        testId="workspace-loading"
      />
    </div>
  );
}

/** What the workspace inside the frame works with. */
export interface FrameContext {
  step: StepDTO | null;
  mode: ProcessingMode | null;
  editable: boolean;
  /** The user's access on the selected step's node (the higher of process and node mode). */
  stepNodeMode: AccessMode | null;
  processMode: AccessMode | null;
  showHidden: boolean;
  highlightUnrelated: boolean;
  settings: UserSettings;
  /** Opens the 'Lack document content' modal with a message. */
  onSaveFailed: (message: string) => void;
  /** The selected step's node's labels with keys (the label hotkeys). */
  labels: StepLabels;
}

export function WorkspaceFrame({
  state,
  kind,
  children,
}: {
  state: DocumentStateDTO;
  /** Which workspace is inside (the `?` overlay lists its shortcuts). */
  kind: WorkspaceKind;
  children: (ctx: FrameContext) => ReactNode;
}) {
  const { t } = useTranslation();
  const doc = state.document;

  const [search, setSearch] = useSearchParams();
  // `?step=<id>` (a timeline entry's link) chooses that step of the document when the workspace opens.
  const [chosenStepId, setChosenStepId] = useState<number | null>(() => {
    const step = Number(search.get('step'));
    return Number.isInteger(step) && step > 0 ? step : null;
  });
  const [tool, setTool] = useSessionState<ToolId | null>('workspace.tool', null);
  // `?panel=issues` (the issues dashboard's link) opens that panel once; the parameter is then dropped, so
  // the panel closes and Previous / Next work as usual.
  const panel = search.get('panel');
  useEffect(() => {
    if (!panel) return;
    if ((TOOL_IDS as readonly string[]).includes(panel)) setTool(panel as ToolId);
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('panel');
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per parameter
  }, [panel]);
  const [showHidden, setShowHidden] = useState(false);
  const [highlightUnrelated, setHighlightUnrelated] = useSessionState('workspace.highlightUnrelated', false);
  const [lackContent, setLackContent] = useState<string | null>(null);
  const { settings, save, clear } = useUserSettings();
  useIssuesTool(setTool);

  const step = resolveSelectedStep(state, chosenStepId);
  const { userId, processMode, stepNodeMode, editable } = useStepAccess(state, step);
  const mode = step ? processingModeOf(step.nodeDTO.activityType) : null;
  const labels = useStepLabels(step?.nodeId ?? null, step?.nodeDTO.activityType ?? null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyT') {
        e.preventDefault();
        focusContent();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(window.document.activeElement)) return;
      if (e.key === 'h') setShowHidden((v) => !v);
      else if (e.key === '?') {
        e.preventDefault();
        setShortcutsOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Toasts stand clear of the work area while a workspace is open (styles.css, body.ws-layout).
  useEffect(() => {
    window.document.body.classList.add('ws-layout');
    return () => window.document.body.classList.remove('ws-layout');
  }, []);

  const cssVariables = useMemo(() => settingsCssVariables(settings) as CSSProperties, [settings]);
  const bodyRef = useRef<HTMLDivElement>(null);

  const onActionDone = (action: StepAction, acted: StepDTO) =>
    setChosenStepId(followsApiAfter(action, acted.status) ? null : acted.id);

  const ctx: FrameContext = {
    step,
    mode,
    editable,
    stepNodeMode,
    processMode: processMode,
    showHidden,
    highlightUnrelated,
    settings,
    onSaveFailed: setLackContent,
    labels,
  };

  return (
    <div className="ws" style={cssVariables} data-testid="workspace" data-document-id={doc.id}>
      <WorkspaceHeader
        state={state}
        stepId={step?.id ?? null}
        userId={userId}
        processMode={processMode}
        showHidden={showHidden}
        onShowHidden={setShowHidden}
        highlightUnrelated={highlightUnrelated}
        onHighlightUnrelated={setHighlightUnrelated}
      />
      <div className="ws-body" ref={bodyRef}>
        <ToolsSidebar
          container={bodyRef}
          tool={tool}
          onTool={setTool}
          state={state}
          userId={userId}
          processMode={processMode}
          settings={settings}
          onSaveSettings={save}
          onClearSettings={clear}
        />
        <main className="ws-main" data-testid="workspace-main" data-mode={mode ?? ''}>
          {step && mode && (
            <div className="ws-mode-bar">
              <span className="badge ws-mode-badge" data-testid="workspace-mode" data-mode={mode}>
                {t(`workspace.mode.${mode}`)}
              </span>
              <span className="fw-semibold text-truncate">{step.nodeName}</span>
              <span className={`badge ws-status ws-status-${step.status.toLowerCase()}`}>
                {t(`workspace.status.${step.status}`)}
              </span>
              <button
                type="button"
                className="btn btn-sm btn-link ms-auto py-0"
                aria-keyshortcuts="?"
                onClick={() => setShortcutsOpen(true)}
              >
                {t('workspace.shortcuts.button')}
              </button>
            </div>
          )}
          <div className="ws-main-body">{children(ctx)}</div>
        </main>
        <StepSidebar
          state={state}
          selected={step}
          userId={userId}
          onSelect={setChosenStepId}
          onActionDone={onActionDone}
        />
      </div>
      {shortcutsOpen && (
        <ShortcutsOverlay kind={kind} mode={mode} labels={labels} onClose={() => setShortcutsOpen(false)} />
      )}
      {lackContent !== null && (
        <LackContentModal message={lackContent} onClose={() => setLackContent(null)} />
      )}
    </div>
  );
}
