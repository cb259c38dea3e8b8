/**
 * The rerun list of a FILE_PARSER node's panel (spec 3 "Rerunnable step", issue 29 section 2): its steps in
 * WAITING or ERROR (`POST api/nodes/{id}/steps/rerun`, pages of 10 loaded as the list scrolls, filtered by
 * status), each with its document, status (an ERROR's message on the badge's tooltip) and master flag.
 * Rerun one, those selected, or all in ERROR (`PUT api/steps/{id}/rerun` per step): the list first says
 * what a rerun replaces and asks once, then shows the progress of the batch and each document's result as
 * its parse ends (the step read again until it leaves PROCESSING).
 */
import { useEffect, useRef, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { StepDTO } from '@domain/document-state-types';
import { http, request } from '../../../api/client';
import { errorMessages } from '../../../api/errors';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useStepErrorText } from '../../../components/stepErrors';

interface RerunnableStep {
  id: number;
  documentId: number;
  documentName: string;
  status: 'WAITING' | 'ERROR';
  master: boolean;
  errorMessage: string | null;
}

type StatusFilter = '' | 'WAITING' | 'ERROR';
const PAGE_SIZE = 10;

export const rerunKeys = {
  all: ['rerun-list'] as const,
  list: (nodeId: number, status: StatusFilter) => [...rerunKeys.all, nodeId, status] as const,
};

async function rerunPage(nodeId: number, status: StatusFilter, page: number, size = PAGE_SIZE) {
  const res = await request<RerunnableStep[]>(`api/nodes/${nodeId}/steps/rerun`, {
    method: 'POST',
    body: { paged: true },
    query: { page, size, sort: 'doc.id', paged: true, status: status || undefined },
  });
  return { items: res.data, total: Number(res.headers.get('X-Total-Count') ?? res.data.length), page };
}

/** Every step of the node in ERROR (pages of 100). */
async function allInError(nodeId: number): Promise<RerunnableStep[]> {
  const out: RerunnableStep[] = [];
  for (let page = 0; ; page++) {
    const p = await rerunPage(nodeId, 'ERROR', page, 100);
    out.push(...p.items);
    if (p.items.length < 100 || out.length >= p.total) return out;
  }
}

/** How one document's rerun went: asked, refused, or the status its parse ended in. */
interface RerunResult {
  step: RerunnableStep;
  state: 'running' | 'refused' | 'done';
  status?: string;
  message?: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function RerunList({ nodeId, processId }: { nodeId: number; processId: number }) {
  const { t } = useTranslation();
  const errorText = useStepErrorText();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [asking, setAsking] = useState<{ steps: RerunnableStep[] | 'allErrors' } | null>(null);
  const [results, setResults] = useState<RerunResult[]>([]);
  const [running, setRunning] = useState(false);
  const list = useInfiniteQuery({
    queryKey: rerunKeys.list(nodeId, status),
    queryFn: ({ pageParam }) => rerunPage(nodeId, status, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total && last.items.length > 0
        ? last.page + 1
        : undefined,
  });
  const rows = list.data?.pages.flatMap((p) => p.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  // Infinite scroll: the next page loads when the end of the list comes into view.
  const end = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const el = end.current;
    if (!el || !hasNextPage) return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const run = async (steps: RerunnableStep[]) => {
    setRunning(true);
    const out: RerunResult[] = steps.map((step) => ({ step, state: 'running' }));
    const show = () => setResults([...out]);
    show();
    for (let i = 0; i < steps.length; i++) {
      try {
        await http.put(`api/steps/${steps[i].id}/rerun`, undefined, { silent: true });
      } catch (err) {
        out[i] = { step: steps[i], state: 'refused', message: errorMessages(t, err).join(' ') };
      }
      show();
    }
    // The parses run on the worker: each step is read again until it has left PROCESSING.
    for (let round = 0; round < 120 && out.some((r) => r.state === 'running'); round++) {
      await sleep(1000);
      await Promise.all(
        out.map(async (r, i) => {
          if (r.state !== 'running') return;
          const step = await http.get<StepDTO>(`api/steps/${r.step.id}`, { silent: true }).catch(() => null);
          if (step && step.status !== 'PROCESSING')
            out[i] = { ...r, state: 'done', status: step.status, message: step.errorMessage };
        }),
      );
      show();
    }
    setRunning(false);
    setSelected(new Set());
    await queryClient.invalidateQueries({ queryKey: [...rerunKeys.all, nodeId] });
  };

  const confirm = async () => {
    if (!asking) return;
    const steps = asking.steps === 'allErrors' ? await allInError(nodeId) : asking.steps;
    setAsking(null);
    await run(steps);
  };

  const askedCount = asking ? (asking.steps === 'allErrors' ? null : asking.steps.length) : 0;
  const done = results.filter((r) => r.state !== 'running').length;
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="d-flex flex-column gap-2" data-testid="rerun-list">
      <p className="small text-body-secondary mb-0">{t('soaApp.nodePanel.rerun.help')}</p>
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <label className="small">
          {t('soaApp.nodePanel.rerun.status')}
          <select
            className="form-select form-select-sm"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as StatusFilter);
              setSelected(new Set());
            }}
          >
            <option value="">{t('soaApp.nodePanel.rerun.anyStatus')}</option>
            <option value="ERROR">{t('workspace.status.ERROR')}</option>
            <option value="WAITING">{t('workspace.status.WAITING')}</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={running || selected.size === 0}
          onClick={() => setAsking({ steps: rows.filter((r) => selected.has(r.id)) })}
        >
          {t('soaApp.nodePanel.rerun.selected', { count: selected.size })}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          disabled={running}
          onClick={() => setAsking({ steps: 'allErrors' })}
        >
          {t('soaApp.nodePanel.rerun.allErrors')}
        </button>
      </div>
      {list.isError ? (
        <p className="text-danger small mb-0" role="alert">
          {errorMessages(t, list.error).join(' ')}
        </p>
      ) : (
        <div className="rerun-list-scroll">
          <table className="table table-sm align-middle mb-0" aria-label={t('soaApp.nodePanel.rerun.title')}>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t('soaApp.nodePanel.rerun.select')}</span>
                </th>
                <th scope="col">{t('soaApp.nodePanel.rerun.document')}</th>
                <th scope="col">{t('soaApp.nodePanel.rerun.statusColumn')}</th>
                <th scope="col">{t('soaApp.nodePanel.rerun.master')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('soaApp.nodePanel.rerun.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <input
                      type="checkbox"
                      className="form-check-input"
                      checked={selected.has(r.id)}
                      onChange={() => toggle(r.id)}
                      aria-label={t('soaApp.nodePanel.rerun.selectDocument', { name: r.documentName })}
                    />
                  </td>
                  <td className="text-break">
                    <Link to={`/entity/process/${processId}/documents/${r.documentId}`}>
                      {r.documentName}
                    </Link>
                  </td>
                  <td>
                    <span
                      className={`badge ${r.status === 'ERROR' ? 'text-bg-danger' : 'text-bg-secondary'}`}
                      title={r.errorMessage ? errorText(r.errorMessage) : undefined}
                    >
                      {t(`workspace.status.${r.status}`)}
                    </span>
                  </td>
                  <td>{r.master ? '✓' : ''}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-sm btn-link p-0"
                      disabled={running}
                      onClick={() => setAsking({ steps: [r] })}
                      aria-label={t('soaApp.nodePanel.rerun.runOne', { name: r.documentName })}
                    >
                      {t('soaApp.nodePanel.rerun.run')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {!list.isPending && rows.length === 0 && (
            <p className="small text-body-secondary mb-0 p-2">{t('soaApp.nodePanel.rerun.empty')}</p>
          )}
          <div ref={end} />
        </div>
      )}
      <p className="small text-body-secondary mb-0">
        {t('soaApp.nodePanel.rerun.shown', { count: rows.length, total })}
      </p>
      {results.length > 0 && (
        <section aria-label={t('soaApp.nodePanel.rerun.results')} className="small">
          <div aria-live="polite">
            {running
              ? t('soaApp.nodePanel.rerun.progress', { done, count: results.length })
              : t('soaApp.nodePanel.rerun.finished', { count: results.length })}
          </div>
          <progress className="w-100" max={results.length} value={done} />
          <ul className="list-unstyled mb-0">
            {results.map((r) => (
              <li key={r.step.id}>
                <span className="fw-semibold">{r.step.documentName}</span>:{' '}
                {r.state === 'running'
                  ? t('soaApp.nodePanel.rerun.running')
                  : r.state === 'refused'
                    ? `${t('soaApp.nodePanel.rerun.refused')} ${r.message ?? ''}`
                    : t(`workspace.status.${r.status}`)}
                {r.state === 'done' && r.message && (
                  <span className="text-danger"> {errorText(r.message)}</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {asking && (
        <ConfirmModal
          title={t('soaApp.nodePanel.rerun.confirmTitle')}
          confirmLabel={t('soaApp.nodePanel.rerun.run')}
          onClose={() => setAsking(null)}
          onConfirm={() => void confirm()}
        >
          <p>
            {askedCount === null
              ? t('soaApp.nodePanel.rerun.confirmAllErrors')
              : t('soaApp.nodePanel.rerun.confirmCount', { count: askedCount })}
          </p>
          <p className="mb-0">{t('soaApp.nodePanel.rerun.replaces')}</p>
        </ConfirmModal>
      )}
    </div>
  );
}
