/**
 * The text/OCR workspace (spec 2 section 2): the header, the icon column with the resizable tools sidebar,
 * the text in the mode of the selected step, and the step sidebar. Holds the step the user chose, the open
 * tool panel, the 'Show hidden tokens' toggle and the user settings (applied as CSS variables).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { modeSatisfies } from '@domain';
import type { DocumentStateDTO, StepDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { workspaceQueries } from '../api';
import { useSessionState } from '../hooks/useSessionState';
import { useUserSettings } from '../hooks/useUserSettings';
import { followsApiAfter, processingModeOf, resolveSelectedStep } from '../model';
import { useStepAccess } from '../hooks/useStepAccess';
import { settingsCssVariables } from '../settings';
import { ClassifierPanel } from './ClassifierPanel';
import { EditingView } from './EditingView';
import { LabelingView } from './LabelingView';
import { LackContentModal } from './LackContentModal';
import { ReadOnlyText } from './ReadOnlyText';
import { StepSidebar } from './StepSidebar';
import { TOOL_IDS, ToolsSidebar, type ToolId } from './ToolsSidebar';
import { WorkspaceHeader } from './WorkspaceHeader';
import { useIssuesTool } from '../hooks/useIssuesTool';

/** True while focus is in a field that takes text (the single-key shortcuts stay out of its way). */
const typing = (el: Element | null) =>
  !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || (el as HTMLElement).isContentEditable);

export function TextWorkspace({ state }: { state: DocumentStateDTO }) {
  const { t } = useTranslation();
  const doc = state.document;

  const [chosenStepId, setChosenStepId] = useState<number | null>(null);
  const [tool, setTool] = useSessionState<ToolId | null>('workspace.tool', null);
  // `?panel=issues` (the issues dashboard's link) opens that panel once; the parameter is then dropped, so
  // the panel closes and Previous / Next work as usual.
  const [search, setSearch] = useSearchParams();
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
  const document = useQuery(workspaceQueries.document(doc.id));

  const step = resolveSelectedStep(state, chosenStepId);
  const { userId, processMode, stepNodeMode, editable } = useStepAccess(state, step);
  const mode = step ? processingModeOf(step.nodeDTO.activityType) : null;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'h' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(window.document.activeElement))
        setShowHidden((v) => !v);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const cssVariables = useMemo(() => settingsCssVariables(settings) as CSSProperties, [settings]);
  const bodyRef = useRef<HTMLDivElement>(null);

  const onActionDone = (action: StepAction, acted: StepDTO) =>
    setChosenStepId(followsApiAfter(action, acted.status) ? null : acted.id);

  const text = document.data?.content?.content ?? '';
  let main;
  if (!step || step.status === 'PROCESSING' || document.isPending) {
    main = (
      <div className="ws-center">
        <DelayedSpinner
          label={t(step?.status === 'PROCESSING' ? 'workspace.processing' : 'workspace.loading')}
          testId="workspace-loading"
        />
      </div>
    );
  } else if (mode === 'EDITING') {
    main = (
      <EditingView
        key={`${document.data?.content?.id ?? 0}:${text}`}
        documentId={doc.id}
        content={document.data?.content ?? null}
        editable={editable}
        step={{ status: step.status, canStart: step.actions.includes('startWorking') }}
        onSaveFailed={setLackContent}
      />
    );
  } else if (mode === 'LABELING') {
    main = (
      <LabelingView
        key={step.id}
        documentId={doc.id}
        processId={doc.processId}
        stepId={step.id}
        text={text}
        editable={editable}
        nodeId={step.nodeId}
        nodeAccess={stepNodeMode}
        showHidden={showHidden}
        canReportIssue={modeSatisfies(processMode, 'WRITE')}
        highlightUnrelated={highlightUnrelated}
      />
    );
  } else {
    main = (
      <>
        {step.nodeDTO.activityType === 'CLF' && (
          <ClassifierPanel key={step.id} documentId={doc.id} nodeId={step.nodeId} editable={editable} />
        )}
        <ReadOnlyText text={text} showHidden={showHidden} />
      </>
    );
  }

  return (
    <div className="ws" style={cssVariables} data-testid="workspace" data-document-id={doc.id}>
      <WorkspaceHeader
        state={state}
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
            </div>
          )}
          <div className="ws-main-body">{main}</div>
        </main>
        <StepSidebar
          state={state}
          selected={step}
          userId={userId}
          onSelect={setChosenStepId}
          onActionDone={onActionDone}
        />
      </div>
      {lackContent !== null && (
        <LackContentModal message={lackContent} onClose={() => setLackContent(null)} />
      )}
    </div>
  );
}
