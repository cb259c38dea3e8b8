/**
 * A document's timeline on its detail page (issue 29 section 1): what happened to it across its workflow's
 * runs, oldest first (GET api/v2/document/{id}/timeline), filtered by kind. Each entry about a step links to
 * that step in the workspace; administrators also get the Temporal UI link of the run an entry belongs to.
 * Error messages are shown in the reader's language where the error catalogue knows them
 * (components/stepErrors.ts); the technical detail stays folded under each entry.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { TimelineKinds, type TimelineEntry, type TimelineKind } from '@domain/timeline';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { ExternalLink } from '../../../components/ExternalLink';
import { formatDateSeconds } from '../../../components/format';
import { documentDetailQueries } from '../api';
import { useStepErrorText } from '../../../components/stepErrors';

/** 850 ms, 12.3 s, 4 min 5 s, 2 h 3 min. */
export function durationLabel(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

function titleKey(e: TimelineEntry): string {
  if (e.type === 'run') return e.outcome === 'failed' ? 'timeline.entry.runFailed' : 'timeline.entry.run';
  if (e.type === 'result')
    return e.outcome === 'failed' ? 'timeline.entry.resultFailed' : 'timeline.entry.result';
  return `timeline.entry.${e.type}`;
}

export function DocumentTimeline({
  documentId,
  processId,
  temporalWorkflowUrl,
}: {
  documentId: number;
  processId: number;
  /** The document's workflow in the Temporal UI (administrators only), else null. */
  temporalWorkflowUrl: string | null;
}) {
  const { t } = useTranslation();
  const timeline = useQuery(documentDetailQueries.timeline(documentId));
  const [kind, setKind] = useState<TimelineKind | 'all'>('all');
  const entries = useMemo(
    () => (timeline.data?.entries ?? []).filter((e) => kind === 'all' || e.kind === kind),
    [timeline.data, kind],
  );

  return (
    <section className="card shadow-sm border-0" aria-labelledby="document-timeline-title">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 className="h6 mb-0 me-auto" id="document-timeline-title">
          {t('timeline.title')}
        </h2>
        <label className="small text-body-secondary d-flex align-items-center gap-2">
          {t('timeline.filter')}
          <select
            className="form-select form-select-sm w-auto"
            value={kind}
            onChange={(e) => setKind(e.target.value as TimelineKind | 'all')}
          >
            <option value="all">{t('timeline.kind.all')}</option>
            {TimelineKinds.map((k) => (
              <option key={k} value={k}>
                {t(`timeline.kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {timeline.isPending ? (
        <div className="p-4 text-center">
          <DelayedSpinner label={t('timeline.loading')} />
        </div>
      ) : timeline.isError ? (
        <div className="alert alert-danger m-3" role="alert">
          {t('timeline.failed')}
        </div>
      ) : (
        <>
          <p className="small text-body-secondary px-3 pt-2 mb-0" aria-live="polite">
            {t('timeline.count', { count: entries.length, total: timeline.data.entries.length })}
          </p>
          {entries.length === 0 ? (
            <p className="p-3 mb-0 text-body-secondary">{t('timeline.empty')}</p>
          ) : (
            <ol className="list-unstyled mb-0 document-timeline" aria-label={t('timeline.title')}>
              {entries.map((e) => (
                <TimelineItem
                  key={e.id}
                  entry={e}
                  documentId={documentId}
                  processId={processId}
                  temporalWorkflowUrl={temporalWorkflowUrl}
                />
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}

function TimelineItem({
  entry: e,
  documentId,
  processId,
  temporalWorkflowUrl,
}: {
  entry: TimelineEntry;
  documentId: number;
  processId: number;
  temporalWorkflowUrl: string | null;
}) {
  const { t } = useTranslation();
  const errorText = useStepErrorText();
  const node = e.nodeName ?? t('timeline.unknownNode');
  const who = e.who ?? t('timeline.engine');
  const facts: string[] = [];
  if (e.status) facts.push(t('timeline.statusAfter', { status: t(`workspace.status.${e.status}`) }));
  if (e.durationMs !== null) facts.push(t('timeline.duration', { duration: durationLabel(e.durationMs) }));
  if (e.outcome === 'refused') facts.push(t('timeline.refused'));
  const failed = e.outcome !== 'ok';
  return (
    <li className={`document-timeline-entry${failed ? ' is-failed' : ''}`} data-kind={e.kind}>
      <div className="d-flex flex-wrap gap-2 align-items-baseline">
        <time className="small text-body-secondary font-monospace" dateTime={e.time}>
          {formatDateSeconds(e.time)}
        </time>
        <span className="fw-semibold">{t(titleKey(e), { node, who })}</span>
        {facts.length > 0 && <span className="small text-body-secondary">{facts.join(' · ')}</span>}
      </div>
      {e.message && (
        <p className="mb-1 small text-danger" role="note">
          {errorText(e.message)}
        </p>
      )}
      {e.documents && e.documents.length > 0 && (
        <p className="mb-1 small">
          {e.documents.map((d) => (
            <Link
              key={d.documentId}
              className="me-2"
              to={`/entity/process/${d.processId}/documents/${d.documentId}`}
            >
              {t('timeline.document', { id: d.documentId })}
            </Link>
          ))}
        </p>
      )}
      <div className="d-flex flex-wrap gap-3 small">
        {e.stepId !== null && (
          <Link
            to={`/entity/process/${processId}/document/${documentId}?step=${e.stepId}`}
            aria-label={`${t('timeline.openStep')}: ${node}`}
          >
            {t('timeline.openStep')}
          </Link>
        )}
        {temporalWorkflowUrl && e.runId && (
          <ExternalLink href={`${temporalWorkflowUrl}/${encodeURIComponent(e.runId)}/history`}>
            {t('timeline.temporalRun')}
          </ExternalLink>
        )}
        {e.detail && (
          <details>
            <summary>{t('timeline.technical')}</summary>
            <pre className="mb-0 small document-timeline-detail">{e.detail}</pre>
          </details>
        )}
      </div>
    </li>
  );
}
