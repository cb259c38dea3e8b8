/**
 * The workspace route's page: reads the ids, loads the document state and picks the workspace by
 * documentType (spec 2 section 2): TEXTFILE the text workspace, AUDIOFILE the speech workspace
 * (../../speech), anything else 'Invalid document type'. Loading shows the delayed spinner; a render failure
 * inside shows the 'Ooops something went wrong...' modal with its link to /home.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router-dom';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { workspaceQueries } from '../api';
import { SpeechWorkspace } from '../../speech/components/SpeechWorkspace';
import { parseId } from '../model';
import { TextWorkspace } from './TextWorkspace';
import '../workspace.css';

export function WorkspacePage() {
  const params = useParams();
  const processId = parseId(params.processId);
  const documentId = parseId(params.documentId);
  if (processId === null)
    return <Notice testId="workspace-not-found" tone="danger" titleKey="workspace.notFound" />;
  if (documentId === null) return <NoDocument processId={processId} />;
  return (
    <ErrorBoundary key={documentId}>
      <WorkspaceLoader processId={processId} documentId={documentId} />
    </ErrorBoundary>
  );
}

function WorkspaceLoader({ processId, documentId }: { processId: number; documentId: number }) {
  const { t } = useTranslation();
  const state = useQuery(workspaceQueries.state(documentId));
  if (state.isPending) {
    return (
      <div className="ws-center">
        <DelayedSpinner label={t('workspace.loading')} testId="workspace-loading" />
      </div>
    );
  }
  if (state.isError || !state.data) {
    return <Notice testId="workspace-not-found" tone="danger" titleKey="workspace.notFound" />;
  }
  const doc = state.data.document;
  // The URL names another process: go to the document's own address (access is checked there again).
  if (doc.processId !== processId)
    return <Navigate to={`/entity/process/${doc.processId}/document/${doc.id}`} replace />;
  switch (doc.documentType) {
    case 'TEXTFILE':
      return <TextWorkspace state={state.data} />;
    case 'AUDIOFILE':
      return <SpeechWorkspace state={state.data} />;
    default:
      return <Notice testId="invalid-document-type" tone="danger" titleKey="workspace.invalidDocumentType" />;
  }
}

function NoDocument({ processId }: { processId: number }) {
  const { t } = useTranslation();
  return (
    <Notice testId="workspace-no-document" tone="secondary" titleKey="workspace.noDocument.title">
      <p>{t('workspace.noDocument.body')}</p>
      <Link
        className="btn btn-outline-primary btn-sm"
        to={`/entity/process/${processId}/dashboard/documents`}
      >
        {t('workspace.noDocument.dashboard')}
      </Link>
    </Notice>
  );
}

function Notice({
  testId,
  tone,
  titleKey,
  children,
}: {
  testId: string;
  tone: 'danger' | 'secondary';
  titleKey: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="container py-5" data-testid={testId}>
      <div className={`alert alert-${tone} shadow-sm status-page`} role="alert">
        <h1 className="h5 mb-2">{t(titleKey)}</h1>
        {children}
      </div>
    </div>
  );
}
