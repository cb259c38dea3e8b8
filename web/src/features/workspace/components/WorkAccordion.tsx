/**
 * The document work accordion of the selected step (spec 2 section 2): one section per kind of step, open,
 * each a disclosure the user may fold:
 * - span tags with relations (SPAN, LEXICON): the step's node's tags by type and the relations between them;
 * - classifier types (CLF): the classes the document has at the node;
 * - LLM prompt: the latest chat response (./LlmResponse.tsx);
 * - send to cloud drive and send to SFTP: the latest result (status, the created file's id or address with a
 *   link to open it) with spec 3 section 8's fallbacks 'Unknown file id' / 'Unknown file address';
 * - other steps: the node, its type, the status and the last change.
 * Below them the accordion's submit sends DONE (spec 2 section 4: the Complete action) when the step allows it.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StepDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { ExternalLink } from '../../../components/ExternalLink';
import { toast } from '../../../components/toast';
import { useStepAction } from '../api';
import { relationQueries } from '../relationsApi';
import { tagQueries } from '../tagsApi';
import { openableAddress, workQueries } from '../workApi';
import { LlmResponse } from './LlmResponse';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <details className="ws-work" open data-testid={testId}>
      <summary className="ws-work-title">{title}</summary>
      {children}
    </details>
  );
}

function Muted({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="small text-body-secondary mb-0" data-testid={testId}>
      {children}
    </p>
  );
}

function SpanWork({ step }: { step: StepDTO }) {
  const { t } = useTranslation();
  const tags = useQuery(tagQueries.ner(step.documentId));
  const graphs = useQuery(relationQueries.graphs(step.documentId));
  if (tags.isPending) return <Muted>{t('workspace.work.loading')}</Muted>;
  const own = (tags.data ?? []).filter((x) => x.nodeId === step.nodeId);
  const byType = new Map<string, { color: string; count: number }>();
  for (const tag of own) {
    const e = byType.get(tag.nerTagType.name) ?? { color: tag.nerTagType.backgroundColor, count: 0 };
    e.count += 1;
    byType.set(tag.nerTagType.name, e);
  }
  const relations = (graphs.data ?? [])
    .filter((g) => g.nodeId === step.nodeId)
    .reduce((n, g) => n + g.relations.length, 0);
  return (
    <>
      {own.length === 0 ? (
        <Muted>{t('workspace.work.span.none')}</Muted>
      ) : (
        <ul className="list-unstyled small mb-1">
          {[...byType.entries()].map(([name, e]) => (
            <li key={name} className="d-flex align-items-center gap-1">
              <span className="ws-label-swatch" style={{ background: e.color }} />
              {name}
              <span className="badge text-bg-light border ms-auto">{e.count}</span>
            </li>
          ))}
        </ul>
      )}
      <Muted>{t('workspace.work.span.summary', { tags: own.length, relations })}</Muted>
    </>
  );
}

function ClassifierWork({ step }: { step: StepDTO }) {
  const { t } = useTranslation();
  const types = useQuery(tagQueries.classifierTypes(step.nodeId));
  const tags = useQuery(tagQueries.classifierTags(step.documentId));
  if (types.isPending || tags.isPending) return <Muted>{t('workspace.work.loading')}</Muted>;
  const chosen = new Set(
    (tags.data ?? []).filter((x) => x.nodeId === step.nodeId).map((x) => x.classifierTypeId),
  );
  const classes = (types.data ?? []).filter((x) => chosen.has(x.id));
  if (!classes.length) return <Muted>{t('workspace.work.classifier.none')}</Muted>;
  return (
    <ul className="list-unstyled small mb-0">
      {classes.map((c) => (
        <li key={c.id} className="d-flex align-items-center gap-1">
          <span className="ws-label-swatch" style={{ background: c.backgroundColor }} />
          {c.name}
        </li>
      ))}
    </ul>
  );
}

/**
 * A send step's latest result: loading, failed to load, none yet, or its status, the created file (else the
 * fallback text) and a link to open it when there is an address a browser opens.
 */
function ResultWork({
  result,
  label,
  file,
  fallback,
  href,
}: {
  result: UseQueryResult<{ status: 'SUCCESS' | 'FAILURE' } | null>;
  label: string;
  file: string | null;
  fallback: string;
  href: string | null;
}) {
  const { t } = useTranslation();
  if (result.isPending) return <Muted>{t('workspace.work.loading')}</Muted>;
  if (result.isError) return <p className="small text-danger mb-0">{t('workspace.work.failed')}</p>;
  const r = result.data;
  if (!r) return <Muted testId="work-no-result">{t('workspace.work.result.none')}</Muted>;
  return (
    <dl className="ws-work-facts small mb-0">
      <dt>{t('workspace.work.result.status')}</dt>
      <dd>
        <span className={`badge ${r.status === 'SUCCESS' ? 'text-bg-success' : 'text-bg-danger'}`}>
          {t(`workspace.work.result.${r.status}`)}
        </span>
      </dd>
      <dt>{t(label)}</dt>
      <dd className="text-break" data-testid="work-file">
        {file ?? t(fallback)}
      </dd>
      {href && (
        <dd className="ws-work-link">
          <ExternalLink href={href}>{t('workspace.work.openFile')}</ExternalLink>
        </dd>
      )}
    </dl>
  );
}

function DriveWork({ step }: { step: StepDTO }) {
  const result = useQuery(workQueries.drive(step.id));
  return (
    <ResultWork
      result={result}
      label="workspace.work.drive.fileId"
      file={result.data?.createdFileId ?? null}
      fallback="workspace.work.drive.unknownFileId"
      href={result.data?.fileUrl ?? null}
    />
  );
}

function SftpWork({ step }: { step: StepDTO }) {
  const result = useQuery(workQueries.sftp(step.id));
  const address = result.data?.createdFileAddress ?? null;
  return (
    <ResultWork
      result={result}
      label="workspace.work.sftp.address"
      file={address}
      fallback="workspace.work.sftp.unknownAddress"
      href={openableAddress(address)}
    />
  );
}

function OtherWork({ step }: { step: StepDTO }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="ws-work-facts small mb-0">
      <dt>{t('workspace.work.other.node')}</dt>
      <dd>{step.nodeName}</dd>
      <dt>{t('workspace.work.other.type')}</dt>
      <dd>{t(`workspace.activity.${step.nodeDTO.activityType}`)}</dd>
      <dt>{t('workspace.work.other.status')}</dt>
      <dd>{t(`workspace.status.${step.status}`)}</dd>
      <dt>{t('workspace.work.other.changed')}</dt>
      <dd>{step.lastModifiedDate ? new Date(step.lastModifiedDate).toLocaleString(i18n.language) : '-'}</dd>
    </dl>
  );
}

/** The section of a step's kind: [title key, test id, body]. */
function sectionOf(step: StepDTO, processId: number): [string, string, ReactNode] {
  switch (step.nodeDTO.activityType) {
    case 'SPAN':
    case 'LEXICON':
      return ['workspace.work.span.title', 'work-span', <SpanWork step={step} />];
    case 'CLF':
      return ['workspace.work.classifier.title', 'work-classifier', <ClassifierWork step={step} />];
    case 'SEND_TO_GOOGLE_DRIVE':
      return ['workspace.work.drive.title', 'work-drive', <DriveWork step={step} />];
    case 'SEND_TO_SFTP':
      return ['workspace.work.sftp.title', 'work-sftp', <SftpWork step={step} />];
    case 'LLM_PROMPT':
      return [
        '',
        'work-llm',
        <LlmResponse
          documentId={step.documentId}
          stepId={step.id}
          nodeId={step.nodeId}
          processId={processId}
        />,
      ];
    default:
      return ['workspace.work.other.title', 'work-other', <OtherWork step={step} />];
  }
}

export function WorkAccordion({
  step,
  processId,
  onDone,
}: {
  step: StepDTO;
  processId: number;
  onDone: (action: StepAction, step: StepDTO) => void;
}) {
  const { t } = useTranslation();
  const run = useStepAction(step.documentId, (action, acted) => {
    toast.success(t(`workspace.steps.actionDone.${action}`));
    onDone(action, acted);
  });
  const [title, testId, body] = sectionOf(step, processId);
  const canSubmit = step.actions.includes('complete');
  // A section, not a form: the LLM section holds a form of its own (the rerun), and forms do not nest.
  return (
    <section className="ws-work-accordion" aria-label={t('workspace.work.title')}>
      {title ? (
        <Section title={t(title)} testId={testId}>
          {body}
        </Section>
      ) : (
        body
      )}
      {canSubmit && (
        <button
          type="button"
          className="btn btn-sm btn-outline-primary w-100 mb-2"
          disabled={run.isPending}
          onClick={() => run.mutate({ step, action: 'complete' })}
        >
          {t('workspace.work.submit')}
        </button>
      )}
    </section>
  );
}
