/**
 * The document list of a process (/entity/process/{processId}/documents, spec 2 section 2 "Document list
 * page"): search by content, by NER tag (tag type with content values per type) or by classifier tag; rows
 * with a checkbox (process admins only: selecting serves deleting), the id (to the document detail),
 * filename, the process shown as its Sphere (to its graph for process admins, to its documents dashboard for
 * the others, who may not open the graph), View (the workspace), Edit and Delete (process permission: Edit
 * WRITE, Delete ADMIN, what the API checks); the master checkbox selects the page,
 * Delete selected, and Delete all (only while the master is checked) with the bulk routes' 120 s budget and
 * a progress bar; the id column sorts ascending (default) or descending; 10, 20 or 50 per page; Upload only
 * with node permission (WRITE) on a HUP node of the process; 'No results' when nothing matches.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { modeSatisfies, nodeMode, type AccessMode } from '@domain';
import {
  CONTENT_SEARCH_MIN,
  DEFAULT_DOCUMENT_SEARCH_SORT,
  DOCUMENT_SEARCH_PAGE_SIZE,
  SearchModes,
  type DocumentSearchBody,
  type DocumentSearchSort,
  type SearchMode,
} from '@domain/document-search';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Pagination } from '../../../components/Pagination';
import { FIRST_PAGE, NO_ANSWER, pageCount, type PagePosition } from '../../../components/pagination';
import { useSession } from '../../account/session';
import { nodeQueries } from '../../graph/api';
import { processQueries, useProcessAccessMode } from '../../processes/api';
import { parseId } from '../../workspace/model';
import { documentListQueries, useDeleteDocuments, type DeleteRequest } from '../api';
import { emptyInputs, searchBody, type SearchInputs } from '../search';
import { DelayedSpinner } from '../../../components/DelayedSpinner';

/** Asked of the server too when the account's own grants give less (as the dashboards do). */
const ADMIN_ONLY: AccessMode[] = ['ADMIN'];

export function DocumentListPage() {
  const processId = parseId(useParams().processId);
  const { principal } = useSession();
  const access = useProcessAccessMode(principal, processId, ADMIN_ONLY);
  if (processId === null || !principal || access.isLoading) return null;
  return <DocumentList processId={processId} mode={access.mode} />;
}

function DocumentList({ processId, mode }: { processId: number; mode: AccessMode | null }) {
  const { t } = useTranslation();
  const { principal } = useSession();
  const canEdit = modeSatisfies(mode, 'WRITE');
  const canDelete = modeSatisfies(mode, 'ADMIN');

  const [inputs, setInputs] = useState<SearchInputs>(emptyInputs());
  const [body, setBody] = useState<DocumentSearchBody>(() => searchBody(processId, emptyInputs()));
  const [sort, setSort] = useState<DocumentSearchSort>(DEFAULT_DOCUMENT_SEARCH_SORT);
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const [size, setSize] = useState(DOCUMENT_SEARCH_PAGE_SIZE);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [master, setMaster] = useState(false);
  const [confirm, setConfirm] = useState<DeleteRequest | null>(null);

  const nodes = useQuery(nodeQueries.list(processId));
  const processes = useQuery(processQueries.list());
  const processName = processes.data?.find((p) => p.id === processId)?.name ?? `#${processId}`;
  const nodeIds = useMemo(() => (nodes.data ?? []).map((n) => n.id), [nodes.data]);
  const nerTypes = useQuery({
    ...documentListQueries.nerTagTypes(nodeIds),
    enabled: inputs.mode === 'BY_NER_TAG' && nodes.isSuccess,
  });
  const classifierTypes = useQuery({
    ...documentListQueries.classifierTypes(processId),
    enabled: inputs.mode === 'BY_CLASSIFIER_TAG',
  });
  const canUpload =
    !!principal &&
    (nodes.data ?? []).some(
      (n) => n.activityType === 'HUP' && modeSatisfies(nodeMode(principal, n.id, processId), 'WRITE'),
    );

  const list = useQuery(documentListQueries.search(body, position, size, sort));
  const rows = list.data?.rows ?? [];
  const pages = pageCount(list.data?.total ?? 0, size);
  const del = useDeleteDocuments();

  // A new search, sort or size starts at the first page; so does a page past the end (spec 2 section 4).
  useEffect(() => setPosition(FIRST_PAGE), [body, sort, size]);
  useEffect(() => {
    if (list.data?.exact && position.kind === 'page' && position.page > 0 && position.page >= pages)
      setPosition(FIRST_PAGE);
  }, [list.data, position, pages]);
  // The selection is of the rows shown.
  useEffect(() => {
    setSelected(new Set());
    setMaster(false);
  }, [body, sort, size, position]);

  const changeMode = (m: SearchMode) => {
    // Changing the mode clears the other inputs and resets the page (spec 1 section 3).
    const next = emptyInputs(m);
    setInputs(next);
    setBody(searchBody(processId, next));
  };
  // The API's rule, checked before sending: a content text needs CONTENT_SEARCH_MIN characters (or none).
  const contentLength = inputs.content.trim().length;
  const contentTooShort =
    inputs.mode === 'BY_CONTENT' && contentLength > 0 && contentLength < CONTENT_SEARCH_MIN;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!contentTooShort) setBody(searchBody(processId, inputs));
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
    setMaster(next.size > 0 && rows.every((r) => next.has(r.id)));
  };
  const toggleMaster = () => {
    const on = !master;
    setMaster(on);
    setSelected(on ? new Set(rows.map((r) => r.id)) : new Set());
  };
  const runDelete = (req: DeleteRequest) => {
    setConfirm(null);
    del.mutate(req, {
      onSuccess: () => {
        setSelected(new Set());
        setMaster(false);
      },
    });
  };

  return (
    <div
      className="container-fluid py-3"
      data-testid="document-list"
      data-nodes={nodes.isSuccess ? 'loaded' : 'loading'}
    >
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h4 mb-0 me-auto">{t('documentList.title')}</h1>
        {canUpload && (
          <Link
            className="btn btn-primary btn-sm"
            to={`/entity/process/${processId}/upload`}
            data-testid="document-list-upload"
          >
            {t('documentList.upload')}
          </Link>
        )}
      </div>

      <form
        className="card card-body shadow-sm border-0 mb-3"
        onSubmit={submit}
        data-testid="document-search"
      >
        <div
          className="btn-group btn-group-sm mb-3 align-self-start"
          role="group"
          aria-label={t('documentList.mode.label')}
        >
          {SearchModes.map((m) => (
            <button
              key={m}
              type="button"
              className={`btn ${inputs.mode === m ? 'btn-primary' : 'btn-outline-primary'}`}
              aria-pressed={inputs.mode === m}
              onClick={() => changeMode(m)}
              data-testid={`document-search-mode-${m}`}
            >
              {t(`documentList.mode.${m}`)}
            </button>
          ))}
        </div>
        {inputs.mode === 'BY_CONTENT' && (
          <>
            <input
              type="search"
              className={`form-control ${contentTooShort ? 'is-invalid' : ''}`}
              placeholder={t('documentList.content.placeholder')}
              aria-label={t('documentList.content.label')}
              value={inputs.content}
              onChange={(e) => setInputs({ ...inputs, content: e.target.value })}
              data-testid="document-search-content"
            />
            {contentTooShort && (
              <div className="invalid-feedback d-block" data-testid="document-search-content-error">
                {t('entity.validation.searchMin', { min: CONTENT_SEARCH_MIN })}
              </div>
            )}
          </>
        )}
        {inputs.mode === 'BY_NER_TAG' && (
          <div className="d-flex flex-column gap-2">
            {inputs.nerTags.map((row, i) => (
              <div className="d-flex gap-2" key={i} data-testid="document-search-ner-row">
                <select
                  className="form-select w-auto"
                  aria-label={t('documentList.ner.type')}
                  value={row.typeId ?? ''}
                  onChange={(e) => {
                    const nerTags = [...inputs.nerTags];
                    nerTags[i] = { ...row, typeId: e.target.value ? Number(e.target.value) : null };
                    setInputs({ ...inputs, nerTags });
                  }}
                  data-testid="document-search-ner-type"
                >
                  <option value="">{t('documentList.ner.chooseType')}</option>
                  {(nerTypes.data ?? []).map((type) => (
                    <option key={type.id} value={type.id}>
                      {type.path || type.name}
                    </option>
                  ))}
                </select>
                <input
                  type="text"
                  className="form-control"
                  placeholder={t('documentList.ner.values')}
                  aria-label={t('documentList.ner.values')}
                  value={row.values}
                  onChange={(e) => {
                    const nerTags = [...inputs.nerTags];
                    nerTags[i] = { ...row, values: e.target.value };
                    setInputs({ ...inputs, nerTags });
                  }}
                  data-testid="document-search-ner-values"
                />
                {inputs.nerTags.length > 1 && (
                  <button
                    type="button"
                    className="btn btn-outline-secondary"
                    aria-label={t('documentList.ner.remove')}
                    title={t('documentList.ner.remove')}
                    onClick={() =>
                      setInputs({ ...inputs, nerTags: inputs.nerTags.filter((_, j) => j !== i) })
                    }
                  >
                    ×
                  </button>
                )}
              </div>
            ))}
            <div>
              <button
                type="button"
                className="btn btn-link btn-sm px-0"
                onClick={() =>
                  setInputs({ ...inputs, nerTags: [...inputs.nerTags, { typeId: null, values: '' }] })
                }
                data-testid="document-search-ner-add"
              >
                {t('documentList.ner.add')}
              </button>
            </div>
          </div>
        )}
        {inputs.mode === 'BY_CLASSIFIER_TAG' && (
          <div className="d-flex flex-wrap gap-3" data-testid="document-search-classifier-types">
            {(classifierTypes.data ?? []).length === 0 && (
              <span className="text-body-secondary">{t('documentList.classifier.none')}</span>
            )}
            {(classifierTypes.data ?? []).map((type) => (
              <label key={type.id} className="form-check mb-0">
                <input
                  type="checkbox"
                  className="form-check-input"
                  checked={inputs.classifierTypeIds.includes(type.id)}
                  onChange={(e) =>
                    setInputs({
                      ...inputs,
                      classifierTypeIds: e.target.checked
                        ? [...inputs.classifierTypeIds, type.id]
                        : inputs.classifierTypeIds.filter((x) => x !== type.id),
                    })
                  }
                  data-testid="document-search-classifier-type"
                  data-type-name={type.name}
                />
                <span className="form-check-label">
                  <span
                    className="d-inline-block rounded-circle me-1 align-middle"
                    style={{ width: 10, height: 10, background: type.backgroundColor }}
                    aria-hidden
                  />
                  {type.name}
                </span>
              </label>
            ))}
          </div>
        )}
        <div className="mt-3">
          <button
            type="submit"
            className="btn btn-primary btn-sm"
            disabled={contentTooShort}
            data-testid="document-search-submit"
          >
            {t('documentList.search')}
          </button>
        </div>
      </form>

      <div className="card shadow-sm border-0">
        {canDelete && (
          <div className="card-body border-bottom d-flex flex-wrap align-items-center gap-2">
            <button
              type="button"
              className="btn btn-outline-danger btn-sm"
              disabled={selected.size === 0 || del.isPending}
              onClick={() => setConfirm({ kind: 'selected', processId, documentIds: [...selected] })}
              data-testid="document-list-delete-selected"
            >
              {t('documentList.deleteSelected', { count: selected.size })}
            </button>
            {master && (
              <button
                type="button"
                className="btn btn-danger btn-sm"
                disabled={del.isPending}
                onClick={() => setConfirm({ kind: 'all', processId })}
                data-testid="document-list-delete-all"
              >
                {t('documentList.deleteAll')}
              </button>
            )}
            {del.isPending && (
              <div className="flex-grow-1" data-testid="document-list-deleting">
                <div className="small text-body-secondary mb-1">{t('documentList.deleting')}</div>
                <div className="progress" role="progressbar" aria-label={t('documentList.deleting')}>
                  <div className="progress-bar progress-bar-striped progress-bar-animated w-100" />
                </div>
              </div>
            )}
          </div>
        )}
        {list.isPending ? (
          <div className="p-5 text-center">
            <DelayedSpinner label={t('global.common.loading')} testId="document-list-loading" />
          </div>
        ) : list.isError ? (
          <div className="p-4 text-danger" data-testid="document-list-error">
            {t('documentList.loadError')}
          </div>
        ) : rows.length === 0 ? (
          <div className="p-5 text-center text-body-secondary" data-testid="document-list-empty">
            {t('documentList.noResults')}
          </div>
        ) : (
          <div className="table-responsive position-relative">
            <table className="table table-hover align-middle mb-0" data-testid="document-list-table">
              <thead>
                <tr>
                  {canDelete && (
                    <th style={{ width: '2.5rem' }}>
                      <input
                        type="checkbox"
                        className="form-check-input"
                        aria-label={t('documentList.selectAll')}
                        checked={master}
                        onChange={toggleMaster}
                        data-testid="document-list-master"
                      />
                    </th>
                  )}
                  <th>
                    <button
                      type="button"
                      className="btn btn-link btn-sm p-0 text-reset fw-semibold text-decoration-none"
                      onClick={() => setSort(sort === 'id,asc' ? 'id,desc' : 'id,asc')}
                      aria-sort={sort === 'id,asc' ? 'ascending' : 'descending'}
                      data-testid="document-list-sort-id"
                      data-sort={sort === 'id,asc' ? 'asc' : 'desc'}
                    >
                      {t('documentList.columns.id')}
                      <span className="ms-1 text-body-secondary" aria-hidden>
                        {sort === 'id,asc' ? '▲' : '▼'}
                      </span>
                    </button>
                  </th>
                  <th>{t('documentList.columns.filename')}</th>
                  <th>{t('documentList.columns.process')}</th>
                  <th className="text-end">
                    <span className="visually-hidden">{t('documentList.columns.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id} data-testid="document-list-row" data-document-id={row.id}>
                    {canDelete && (
                      <td>
                        <input
                          type="checkbox"
                          className="form-check-input"
                          aria-label={t('documentList.select', { filename: row.filename })}
                          checked={selected.has(row.id)}
                          onChange={() => toggle(row.id)}
                          data-testid="document-list-select"
                        />
                      </td>
                    )}
                    <td>
                      <Link
                        to={`/entity/process/${row.processId}/documents/${row.id}`}
                        data-testid="document-list-id"
                      >
                        {row.id}
                      </Link>
                    </td>
                    <td className="text-break" data-testid="document-list-filename">
                      {row.filename}
                    </td>
                    <td>
                      <Link
                        to={
                          // the graph is for process admins only; the others get the documents dashboard
                          canDelete
                            ? `/entity/process/${row.processId}/graph`
                            : `/entity/process/${row.processId}/dashboard/documents`
                        }
                        data-testid="document-list-process"
                      >
                        {row.processId === processId ? processName : `#${row.processId}`}
                      </Link>
                    </td>
                    <td className="text-end text-nowrap">
                      <Link
                        className="btn btn-sm btn-outline-primary me-1"
                        to={`/entity/process/${row.processId}/document/${row.id}`}
                        data-testid="document-list-view"
                      >
                        {t('documentList.view')}
                      </Link>
                      {canEdit && (
                        <Link
                          className="btn btn-sm btn-outline-secondary me-1"
                          to={`/entity/process/${row.processId}/documents/${row.id}/edit`}
                          data-testid="document-list-edit"
                        >
                          {t('global.common.edit')}
                        </Link>
                      )}
                      {canDelete && (
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-danger"
                          disabled={del.isPending}
                          onClick={() => setConfirm({ kind: 'one', id: row.id })}
                          data-testid="document-list-delete"
                        >
                          {t('global.common.delete')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="card-footer bg-body d-flex flex-wrap align-items-center gap-3">
          <Pagination
            position={position}
            size={size}
            answer={list.data ?? NO_ANSWER}
            onGo={setPosition}
            onSize={setSize}
            testId="document-list-pagination"
          />
        </div>
      </div>

      {confirm && (
        <ConfirmModal
          danger
          title={t('documentList.confirm.title')}
          onConfirm={() => runDelete(confirm)}
          onClose={() => setConfirm(null)}
          testId="document-list-confirm"
        >
          {confirm.kind === 'one'
            ? t('documentList.confirm.one', { id: confirm.id })
            : confirm.kind === 'selected'
              ? t('documentList.confirm.selected', { count: confirm.documentIds.length })
              : t('documentList.confirm.all')}
        </ConfirmModal>
      )}
    </div>
  );
}
