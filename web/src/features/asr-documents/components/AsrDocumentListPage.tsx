/**
 * The asr-document list (spec 2 section 2): a process dropdown ('Choose a process'), a search box with search
 * and reset, and the ids with view, edit and delete (each shown with the mode its call needs: READ, WRITE,
 * ADMIN on the process); 'No Asr Documents found' when empty. The delete modal opens over it (/{id}/delete).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useSearchParams } from 'react-router-dom';
import { higherMode, modeSatisfies, processMode, type AccessMode } from '@domain';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { Pagination } from '../../../components/Pagination';
import { useSession } from '../../account/session';
import { processQueries } from '../../processes/api';
import { ASR_PAGE_SIZE, asrQueries } from '../api';

export function AsrDocumentListPage() {
  const { t } = useTranslation();
  const { principal } = useSession();
  const [params, setParams] = useSearchParams();
  const processId = Number(params.get('processId')) || null;
  const query = params.get('query') ?? '';
  const page = Number(params.get('page')) || 0;
  const size = Number(params.get('size')) || ASR_PAGE_SIZE;
  const [typed, setTyped] = useState(query);
  const processes = useQuery(processQueries.list());
  const list = useQuery({
    ...asrQueries.list(processId, query, page, size),
    enabled: !!processId || !!query,
  });
  const set = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next))
      if (v) p.set(k, v);
      else p.delete(k);
    setParams(p, { replace: true });
  };
  const modeOn = (pid: number): AccessMode | null => {
    const p = processes.data?.find((x) => x.id === pid);
    return higherMode(principal ? processMode(principal, pid) : null, p?.accessMode ?? null);
  };
  const may = (pid: number, mode: AccessMode) => modeSatisfies(modeOn(pid), mode);
  const rows = list.data?.rows ?? [];

  return (
    <div className="container-fluid py-3" data-testid="asr-document-list">
      <div className="d-flex align-items-center gap-2 mb-3">
        <h2 className="h4 mb-0 me-auto">{t('soaApp.asrDocument.home.title')}</h2>
        {processId && may(processId, 'WRITE') && (
          <Link
            to={`/entity/asr-document/new?processId=${processId}`}
            className="btn btn-primary"
            data-testid="asr-document-create"
          >
            {t('soaApp.asrDocument.home.createLabel')}
          </Link>
        )}
      </div>
      <div className="row g-2 mb-3">
        <div className="col-md-4">
          <select
            className="form-select"
            aria-label={t('soaApp.asrDocument.home.chooseProcess')}
            value={processId ?? ''}
            onChange={(e) => set({ processId: e.target.value || null, page: null })}
            data-testid="asr-document-process"
          >
            <option value="">{t('soaApp.asrDocument.home.chooseProcess')}</option>
            {(processes.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <form
          className="col-md-8 d-flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            set({ query: typed.trim() || null, page: null });
          }}
        >
          <input
            className="form-control"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={t('soaApp.asrDocument.home.search')}
            data-testid="asr-document-search"
          />
          <button type="submit" className="btn btn-outline-primary" data-testid="asr-document-search-submit">
            {t('soaApp.asrDocument.home.searchButton')}
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => {
              setTyped('');
              set({ query: null, page: null });
            }}
            data-testid="asr-document-search-reset"
          >
            {t('soaApp.asrDocument.home.reset')}
          </button>
        </form>
      </div>
      {list.isFetching && !list.data ? (
        <DelayedSpinner label={t('global.common.loading')} />
      ) : !rows.length ? (
        <div className="alert alert-warning" data-testid="asr-document-empty">
          {t('soaApp.asrDocument.home.notFound')}
        </div>
      ) : (
        <>
          <table className="table table-striped align-middle">
            <thead>
              <tr>
                <th>{t('soaApp.asrDocument.id')}</th>
                <th>{t('soaApp.asrDocument.filename')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid="asr-document-row">
                  <td data-testid="asr-document-id">
                    <Link to={`/entity/asr-document/${d.id}`}>{d.id}</Link>
                  </td>
                  <td>{d.filename}</td>
                  <td className="text-end">
                    <div className="btn-group btn-group-sm">
                      <Link
                        to={`/entity/asr-document/${d.id}`}
                        className="btn btn-info"
                        data-testid="asr-document-view"
                      >
                        {t('soaApp.asrDocument.action.view')}
                      </Link>
                      {may(d.processId, 'WRITE') && (
                        <Link
                          to={`/entity/asr-document/${d.id}/edit`}
                          className="btn btn-primary"
                          data-testid="asr-document-edit"
                        >
                          {t('soaApp.asrDocument.action.edit')}
                        </Link>
                      )}
                      {may(d.processId, 'ADMIN') && (
                        <Link
                          to={`/entity/asr-document/${d.id}/delete?${params.toString()}`}
                          className="btn btn-danger"
                          data-testid="asr-document-delete"
                        >
                          {t('soaApp.asrDocument.action.delete')}
                        </Link>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination
            page={page}
            size={size}
            total={list.data?.total ?? 0}
            onPage={(p) => set({ page: p ? String(p) : null })}
            onSize={(n) => set({ size: String(n), page: null })}
          />
        </>
      )}
      <Outlet />
    </div>
  );
}
