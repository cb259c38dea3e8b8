/**
 * The text/OCR workspace (spec 2 section 2): inside the shared frame (./WorkspaceFrame.tsx: header, tools
 * sidebar, step sidebar, settings), the text in the mode of the selected step. A range named on the address
 * (`?start=&end=`, a RAG chunk's link) is scrolled to and highlighted once the text is drawn.
 */
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { modeSatisfies } from '@domain';
import type { DocumentStateDTO } from '@domain/document-state-types';
import { workspaceQueries } from '../api';
import { ADDRESS_HIGHLIGHT, useAnchorHighlight } from '../hooks/useAnchorHighlight';
import { clampRange, rangeFromSearch } from '../textRange';
import { ClassifierPanel } from './ClassifierPanel';
import { EditingView } from './EditingView';
import { LabelingView } from './LabelingView';
import { ReadOnlyText } from './ReadOnlyText';
import { StepLoading, WorkspaceFrame, type FrameContext } from './WorkspaceFrame';

export function TextWorkspace({ state }: { state: DocumentStateDTO }) {
  return (
    <WorkspaceFrame state={state} kind="text">
      {(ctx) => <TextMain state={state} ctx={ctx} />}
    </WorkspaceFrame>
  );
}

function TextMain({ state, ctx }: { state: DocumentStateDTO; ctx: FrameContext }) {
  const doc = state.document;
  const document = useQuery(workspaceQueries.document(doc.id));
  const { step, mode, editable, stepNodeMode, showHidden } = ctx;

  const text = document.data?.content?.content ?? '';
  const loading = !step || step.status === 'PROCESSING' || document.isPending;
  const [search] = useSearchParams();
  const named = clampRange(rangeFromSearch(search), text.length);
  // (the hook compares ranges by value)
  useAnchorHighlight(named && !loading && mode !== 'EDITING' ? [named] : null, ADDRESS_HIGHLIGHT);
  if (loading) return <StepLoading step={step} />;

  if (mode === 'EDITING') {
    return (
      <EditingView
        key={`${document.data?.content?.id ?? 0}:${text}`}
        documentId={doc.id}
        content={document.data?.content ?? null}
        editable={editable}
        step={{ status: step.status, canStart: step.actions.includes('startWorking') }}
        onSaveFailed={ctx.onSaveFailed}
      />
    );
  }
  if (mode === 'LABELING') {
    return (
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
        canReportIssue={modeSatisfies(ctx.processMode, 'WRITE')}
        highlightUnrelated={ctx.highlightUnrelated}
        hotkeys={ctx.labels}
      />
    );
  }
  return (
    <>
      {step.nodeDTO.activityType === 'CLF' && (
        <ClassifierPanel
          key={step.id}
          documentId={doc.id}
          nodeId={step.nodeId}
          editable={editable}
          hotkeys={ctx.labels}
        />
      )}
      <ReadOnlyText text={text} showHidden={showHidden} />
    </>
  );
}
