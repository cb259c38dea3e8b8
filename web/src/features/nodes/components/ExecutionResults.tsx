/**
 * What an automatic node did (issue 29 section 3): its action execution results, newest first, ten a page
 * (`GET api/action-execution-results?nodeId&status`), each with its time, document (a link), status, answer or
 * error (the error catalogue's text in the reader's language) and duration. An inter-process send also shows
 * each receiving process with the document created there and that document's status, and a failed send can
 * be sent again by an administrator (`POST api/steps/{id}/resend`).
 */
import { useId, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActionExecutionResultDTO, DeliveryDTO } from '@domain/action-results';
import { http, request } from '../../../api/client';
import { errorMessages } from '../../../api/errors';
import { formatDateSeconds } from '../../../components/format';
import { Pagination } from '../../../components/Pagination';
import { FIRST_PAGE, NO_ANSWER, pageAnswerOf, type PagePosition } from '../../../components/pagination';
import { useStepErrorText } from '../../../components/stepErrors';
import { toast } from '../../../components/toast';

type StatusFilter = '' | 'SUCCESS' | 'FAILURE';
const PAGE_SIZE = 10;

export const executionKeys = {
  all: ['action-execution-results'] as const,
  list: (nodeId: number, status: StatusFilter, page: number) =>
    [...executionKeys.all, nodeId, status, page] as const,
};

async function executionPage(nodeId: number, status: StatusFilter, page: number) {
  const res = await request<ActionExecutionResultDTO[]>('api/action-execution-results', {
    query: { nodeId, page, size: PAGE_SIZE, status: status || undefined },
  });
  return { rows: res.data, answer: pageAnswerOf(res.headers, res.data.length) };
}

/** The answer's fields in one line (the created documents are listed on their own). */
function answerText(details: Record<string, unknown>): string {
  const shown = Object.entries(details).filter(
    ([k, v]) => !['documents', 'documentIds', 'durationMs', 'error'].includes(k) && v !== null && v !== '',
  );
  const text = shown.map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  const line = text.join(', ');
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

function duration(ms: number | null, locale: string): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms.toLocaleString(locale)} ms`;
  return `${(ms / 1000).toLocaleString(locale, { maximumFractionDigits: 1 })} s`;
}

function statusBadge(status: string | null) {
  const tone =
    status === 'SUCCESS' || status === 'DONE'
      ? 'text-bg-success'
      : status === 'FAILURE' || status === 'ERROR'
        ? 'text-bg-danger'
        : 'text-bg-secondary';
  return tone;
}

export function ExecutionResults({
  nodeId,
  processId,
  mayResend,
}: {
  nodeId: number;
  processId: number;
  mayResend: boolean;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useStepErrorText();
  const id = useId();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>('');
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const page = position.kind === 'page' ? position.page : 0;
  const list = useQuery({
    queryKey: executionKeys.list(nodeId, status, page),
    queryFn: () => executionPage(nodeId, status, page),
    placeholderData: keepPreviousData,
  });
  const resend = useMutation({
    mutationFn: (stepId: number) => http.post(`api/steps/${stepId}/resend`, undefined, { silent: true }),
    onSuccess: () => toast.success(t('soaApp.nodePanel.results.resent')),
    onError: (e) => {
      for (const text of errorMessages(t, e)) toast.error(text);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...executionKeys.all, nodeId] }),
  });
  const rows = list.data?.rows ?? [];
  const documentLink = (documentId: number, name: string | null, inProcess = processId) => (
    <Link to={`/entity/process/${inProcess}/documents/${documentId}`}>{name ?? `#${documentId}`}</Link>
  );
  const delivery = (d: DeliveryDTO) => (
    <li key={`${d.receiverNodeId}-${d.documentId}`}>
      {t('soaApp.nodePanel.results.deliveredTo', {
        process: d.processName ?? `#${d.processId}`,
        node: d.receiverName ?? `#${d.receiverNodeId}`,
      })}{' '}
      {d.documentName === null ? (
        <span className="text-body-secondary">{t('soaApp.nodePanel.results.deleted')}</span>
      ) : (
        <>
          {documentLink(d.documentId, d.documentName, d.processId)}{' '}
          <span className={`badge ${statusBadge(d.documentStatus)}`}>
            {t(`workspace.status.${d.documentStatus}`, { defaultValue: d.documentStatus ?? '' })}
          </span>
        </>
      )}
    </li>
  );

  return (
    <div className="d-flex flex-column gap-2" data-testid="execution-results">
      <p className="small text-body-secondary mb-0">{t('soaApp.nodePanel.results.help')}</p>
      <label className="small" htmlFor={`${id}-status`}>
        {t('soaApp.nodePanel.results.status')}
      </label>
      <select
        id={`${id}-status`}
        className="form-select form-select-sm"
        value={status}
        onChange={(e) => {
          setStatus(e.target.value as StatusFilter);
          setPosition(FIRST_PAGE);
        }}
      >
        <option value="">{t('soaApp.nodePanel.results.anyStatus')}</option>
        <option value="SUCCESS">{t('soaApp.nodePanel.results.SUCCESS')}</option>
        <option value="FAILURE">{t('soaApp.nodePanel.results.FAILURE')}</option>
      </select>
      {list.isError ? (
        <p className="text-danger small mb-0" role="alert">
          {errorMessages(t, list.error).join(' ')}
        </p>
      ) : (
        <table
          className="table table-sm align-top mb-0 small"
          aria-label={t('soaApp.nodePanel.results.title')}
        >
          <thead>
            <tr>
              <th scope="col">{t('soaApp.nodePanel.results.time')}</th>
              <th scope="col">{t('soaApp.nodePanel.results.document')}</th>
              <th scope="col">{t('soaApp.nodePanel.results.statusColumn')}</th>
              <th scope="col">{t('soaApp.nodePanel.results.duration')}</th>
            </tr>
          </thead>
          {/* one body per result: its figures, then its answer or error across the panel's width */}
          {rows.map((r) => (
            <tbody key={r.id} className="execution-result">
              <tr>
                <td className="text-nowrap border-bottom-0">{formatDateSeconds(r.createdDate)}</td>
                <td className="text-break border-bottom-0">
                  {r.documentId === null
                    ? t('soaApp.nodePanel.results.batch')
                    : documentLink(r.documentId, r.documentName)}
                </td>
                <td className="border-bottom-0">
                  <span className={`badge ${statusBadge(r.status)}`}>
                    {t(`soaApp.nodePanel.results.${r.status}`)}
                  </span>
                </td>
                <td className="text-nowrap border-bottom-0">{duration(r.durationMs, i18n.language)}</td>
              </tr>
              <tr>
                <td colSpan={4} className="text-break pt-0">
                  <span className="visually-hidden">{t('soaApp.nodePanel.results.answer')}: </span>
                  {r.error !== null ? (
                    <span className="text-danger" title={r.error}>
                      {errorText(r.error)}
                    </span>
                  ) : (
                    <span className="text-body-secondary" title={JSON.stringify(r.details)}>
                      {answerText(r.details)}
                    </span>
                  )}
                  {r.deliveries && r.deliveries.length > 0 && (
                    <ul className="list-unstyled mb-0">{r.deliveries.map(delivery)}</ul>
                  )}
                  {r.resendable && mayResend && r.stepId !== null && (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-primary mt-1 d-block"
                      disabled={resend.isPending}
                      onClick={() => resend.mutate(r.stepId!)}
                    >
                      {t('soaApp.nodePanel.results.resend')}
                    </button>
                  )}
                </td>
              </tr>
            </tbody>
          ))}
        </table>
      )}
      {!list.isPending && rows.length === 0 && (
        <p className="small text-body-secondary mb-0">{t('soaApp.nodePanel.results.empty')}</p>
      )}
      {(list.data?.answer.total ?? 0) > PAGE_SIZE && (
        <Pagination
          position={position}
          size={PAGE_SIZE}
          answer={list.data?.answer ?? NO_ANSWER}
          onGo={setPosition}
          testId="execution-results-pager"
        />
      )}
    </div>
  );
}
