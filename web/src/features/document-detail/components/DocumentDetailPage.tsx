/**
 * Document detail /entity/process/{processId}/documents/{id} (spec 2 "Document detail and edit"): the
 * document's fields, its text content, or for a speech document (AUDIOFILE) an audio player and the
 * utterances in order with the actor's name; 'soaApp.document.detail.noContent' when there is nothing.
 * Edit (process WRITE, what PUT api/documents checks) and Open in the workspace. Below, the document's
 * timeline (issue 29 section 1); process administrators may replace its file (section 2).
 */
import { useState, type ReactNode } from 'react';
import { usePrefetchQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { modeSatisfies } from '@domain';
import { ExternalLink } from '../../../components/ExternalLink';
import { IconArrowLeft, IconFile, IconPencil } from '../../../components/icons';
import { useSession } from '../../account/session';
import { processQueries, useProcessAccessMode } from '../../processes/api';
import { managementQueries, temporalUiLink } from '../../shell/api';
import { sizeLabel } from '../../upload/messages';
import { documentDetailQueries, type DocumentDetailDTO, type UserRefDTO } from '../api';
import { AudioPlayer, type AudioRegion, type RegionId } from '../../speech/components/AudioPlayer';
import { FIT_WINDOWS, speechQueries } from '../../speech/api';
import { useUserSettings } from '../../workspace/hooks/useUserSettings';
import '../document-detail.css';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { DocumentTimeline } from './DocumentTimeline';
import { ReplaceFileDialog } from './ReplaceFileDialog';

import { formatDate } from '../../../components/format';

const userName = (u: UserRefDTO) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ') || u.login || u.email || `#${u.id}`;

export function DocumentDetailPage() {
  const { t } = useTranslation();
  const params = useParams();
  const processId = Number(params.processId);
  const documentId = Number(params.id);
  const { principal, account } = useSession();
  const access = useProcessAccessMode(principal, processId, ['ADMIN']);
  const canEdit = modeSatisfies(access.mode, 'WRITE');
  const canReplace = modeSatisfies(access.mode, 'ADMIN');
  const [replacing, setReplacing] = useState(false);
  // A recording's first waveform peaks (16 KB) asked for with the document, not once it has arrived (a text
  // document has none: one 404).
  usePrefetchQuery(speechQueries.peaks(documentId, FIT_WINDOWS));
  const doc = useQuery(documentDetailQueries.document(documentId));
  const process = useQuery(processQueries.detail(processId));
  const wrongProcess = doc.data && doc.data.processId !== processId;
  // Administrators: the document's workflow history in the Temporal UI (when TEMPORAL_UI_URL is set).
  const { data: info } = useQuery(managementQueries.info(account?.login));
  const history = temporalUiLink(info, `document-${documentId}`);

  return (
    <div className="container-xxl py-4 page document-detail-page" data-testid="document-detail">
      <div className="page-header d-flex flex-wrap align-items-center gap-2 mb-3">
        <Link
          to={`/entity/process/${processId}/documents`}
          className="btn btn-outline-secondary btn-sm"
          data-testid="document-detail-back"
        >
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto min-w-0">
          <h1 className="h3 mb-0 text-break" data-testid="document-detail-filename">
            {doc.data && !wrongProcess ? doc.data.filename : t('soaApp.document.detail.title')}
          </h1>
          <p className="text-body-secondary mb-0 small">{process.data?.name ?? '\u00a0'}</p>
        </div>
        {doc.data && !wrongProcess && (
          <div className="d-flex gap-2">
            <Link
              to={`/entity/process/${processId}/document/${documentId}`}
              className="btn btn-outline-primary btn-sm"
              data-testid="document-detail-open"
            >
              <IconFile className="me-1" />
              {t('soaApp.document.detail.open')}
            </Link>
            {history && (
              <ExternalLink
                href={history}
                className="btn btn-outline-secondary btn-sm"
                testId="document-detail-temporal"
              >
                {t('adminWatch.workflowHistory')}
              </ExternalLink>
            )}
            {canReplace && (
              <button
                type="button"
                className="btn btn-outline-danger btn-sm"
                onClick={() => setReplacing(true)}
                data-testid="document-detail-replace"
              >
                {t('soaApp.document.replace.open')}
              </button>
            )}
            {canEdit && (
              <Link
                to={`/entity/process/${processId}/documents/${documentId}/edit`}
                className="btn btn-primary btn-sm"
                data-testid="document-detail-edit"
              >
                <IconPencil className="me-1" />
                {t('global.common.edit')}
              </Link>
            )}
          </div>
        )}
      </div>

      {replacing && doc.data && (
        <ReplaceFileDialog
          documentId={documentId}
          filename={doc.data.filename}
          onClose={() => setReplacing(false)}
        />
      )}
      {doc.isPending ? (
        <div className="p-5 text-center">
          <DelayedSpinner label={t('global.common.loading')} />
        </div>
      ) : doc.isError || wrongProcess ? (
        <div className="alert alert-danger" data-testid="document-detail-error">
          {t('soaApp.document.detail.notFound')}
        </div>
      ) : (
        <div className="row g-3">
          <div className="col-lg-8">
            {doc.data.documentType === 'AUDIOFILE' ? (
              <SpeechContent documentId={documentId} processId={processId} mimeType={doc.data.mimeType} />
            ) : (
              <TextContent doc={doc.data} />
            )}
          </div>
          <div className="col-lg-4">
            <DocumentFacts doc={doc.data} processName={process.data?.name} />
          </div>
          <div className="col-12">
            <DocumentTimeline documentId={documentId} processId={processId} temporalWorkflowUrl={history} />
          </div>
        </div>
      )}
    </div>
  );
}

function DocumentFacts({ doc, processName }: { doc: DocumentDetailDTO; processName?: string }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode, string][] = [
    [t('soaApp.document.field.id'), doc.id, 'id'],
    [t('soaApp.document.field.filename'), doc.filename, 'filename'],
    [t('soaApp.document.field.path'), <code key="p">{doc.path}</code>, 'path'],
    [t('soaApp.document.field.documentType'), t(`soaApp.document.type.${doc.documentType}`), 'type'],
    [t('soaApp.document.field.process'), processName ?? doc.processId, 'process'],
    [
      t('soaApp.document.field.status'),
      t(`soaApp.document.status.${doc.status}`, { defaultValue: doc.status }),
      'status',
    ],
    [t('soaApp.document.field.size'), `${sizeLabel(doc.size)} · ${doc.mimeType}`, 'size'],
    [t('soaApp.document.field.created'), formatDate(doc.createdDate), 'created'],
    [
      t('soaApp.document.field.assignees'),
      doc.assignees.length ? doc.assignees.map(userName).join(', ') : t('soaApp.document.detail.noAssignees'),
      'assignees',
    ],
  ];
  if (doc.blockedBy) rows.push([t('soaApp.document.field.blockedBy'), userName(doc.blockedBy), 'blocked']);
  return (
    <div className="card shadow-sm border-0">
      <dl className="card-body mb-0 document-facts" data-testid="document-facts">
        {rows.map(([label, value, key]) => (
          <div key={key} className="document-fact">
            <dt className="small text-body-secondary fw-normal">{label}</dt>
            <dd className="mb-2 text-break" data-testid={`document-fact-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function NoContent() {
  const { t } = useTranslation();
  return (
    <div className="p-4 text-center text-body-secondary" data-testid="document-no-content">
      {t('soaApp.document.detail.noContent')}
    </div>
  );
}

function TextContent({ doc }: { doc: DocumentDetailDTO }) {
  const { t } = useTranslation();
  const text = doc.content?.content ?? '';
  return (
    <div className="card shadow-sm border-0">
      <div className="card-header bg-transparent">
        <h2 className="h6 mb-0">{t('soaApp.document.detail.content')}</h2>
      </div>
      {text.trim() ? (
        <pre className="card-body mb-0 document-text" data-testid="document-content">
          {text}
        </pre>
      ) : (
        <NoContent />
      )}
    </div>
  );
}

/** A span drawn on the detail page's waveform: shown until the page is left (nothing is saved here). */
const draftSpan = (n: number, start: number, end: number): AudioRegion => ({
  id: `span-${n + 1}`,
  start,
  end,
  color: 'rgba(255, 193, 7, 0.35)',
  label: `${n + 1}`,
});

function SpeechContent({
  documentId,
  processId,
  mimeType,
}: {
  documentId: number;
  processId: number;
  mimeType: string;
}) {
  const { t } = useTranslation();
  const { settings } = useUserSettings();
  const [spans, setSpans] = useState<AudioRegion[]>([]);
  const [selectedSpan, setSelectedSpan] = useState<RegionId | null>(null);
  const utterances = useQuery(documentDetailQueries.utterances(documentId));
  const process = useQuery(processQueries.detail(processId));
  const actorName = (code: string) =>
    process.data?.actors.find((a) => a.actor === code)?.name ??
    (code === 'artifact' ? t('soaApp.document.detail.artifact') : code);
  const list = utterances.data ?? [];
  return (
    <div className="card shadow-sm border-0">
      <div className="card-header bg-transparent">
        <h2 className="h6 mb-0">{t('soaApp.document.detail.speech')}</h2>
      </div>
      <div className="card-body border-bottom">
        <AudioPlayer
          documentId={documentId}
          mimeType={mimeType}
          downloadBlocked={settings['source-download-blocked']}
          regions={spans}
          onRegionCreate={(start, end) => setSpans((list) => [...list, draftSpan(list.length, start, end)])}
          onRegionUpdate={(id, start, end) =>
            setSpans((list) => list.map((r) => (r.id === id ? { ...r, start, end } : r)))
          }
          onRegionClick={setSelectedSpan}
          selectedRegionId={selectedSpan}
        />
      </div>
      {utterances.isPending ? (
        <div className="p-4 text-center">
          <div
            className="spinner-border spinner-border-sm text-primary"
            role="status"
            aria-label={t('global.common.loading')}
          />
        </div>
      ) : list.length === 0 ? (
        <NoContent />
      ) : (
        <ol className="list-group list-group-flush document-utterances" data-testid="document-utterances">
          {list.map((u) => (
            <li key={u.id} className="list-group-item" data-testid="document-utterance">
              <div className="small fw-medium text-primary">{actorName(u.actor)}</div>
              <div>{u.tokens.map((tk) => tk.value).join(' ')}</div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
