/**
 * The upload page /entity/process/{id}/upload (spec 2 "Upload page"): a multi-file drop zone with a file
 * picker for the accepted types, disabled without an upload (HUP) node the user may write to, a choice of
 * node when there are several; every file is checked with the API's rule before it is sent (refused ones
 * listed apart, discardable), then sent one at a time with its progress bar; failures go to an error list
 * with Retry; each uploaded file links to its document in the workspace and to its detail page.
 */
import { useEffect, useReducer, useRef, useState, type DragEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { processMode } from '@domain';
import { IconArrowLeft, IconClose, IconUpload } from '../../../components/icons';
import { useSession } from '../../account/session';
import { documentInfoKeys } from '../../documents/api';
import { processQueries } from '../../processes/api';
import { uploadFile, useUploadLimits, useUploadNodes } from '../api';
import { failureText, reasonText, sizeLabel } from '../messages';
import {
  ACCEPT_ATTRIBUTE,
  checkFile,
  EMPTY_UPLOAD_STATE,
  nextToSend,
  percentOf,
  summary,
  uploadReducer,
  type RejectedItem,
  type UploadItem,
} from '../model';
import '../upload.css';

export function UploadPage() {
  const { t } = useTranslation();
  const processId = Number(useParams().id);
  const { principal } = useSession();
  const queryClient = useQueryClient();
  const readsProcess = !!principal && processMode(principal, processId) !== null;
  const process = useQuery({ ...processQueries.detail(processId), enabled: readsProcess });
  const { nodes, isLoading } = useUploadNodes(principal, processId);
  const limits = useUploadLimits();
  const writable = nodes.filter((n) => n.writable);
  const [chosenNodeId, setChosenNodeId] = useState<number | null>(null);
  const nodeId = writable.find((n) => n.id === chosenNodeId)?.id ?? writable[0]?.id ?? null;
  const disabled = nodeId === null;

  const [state, dispatch] = useReducer(uploadReducer, EMPTY_UPLOAD_STATE);
  const [checking, setChecking] = useState(0);
  const [dragging, setDragging] = useState(false);
  const nextKey = useRef(0);
  const sending = useRef<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // One file at a time: when nothing is on its way, send the first queued one.
  useEffect(() => {
    const next = nextToSend(state);
    if (!next || sending.current) return;
    sending.current = next.key;
    dispatch({ type: 'started', key: next.key });
    uploadFile(next.file, next.nodeId, {
      onProgress: (loaded, total) => dispatch({ type: 'progress', key: next.key, loaded, total }),
    }).then(
      (doc) => {
        sending.current = null;
        dispatch({ type: 'succeeded', key: next.key, documentId: doc.id });
        void queryClient.invalidateQueries({ queryKey: documentInfoKeys.all });
      },
      (error: unknown) => {
        sending.current = null;
        dispatch({ type: 'failed', key: next.key, error });
      },
    );
  }, [state, queryClient]);

  const addFiles = async (files: File[]) => {
    const target = nodeId;
    if (target === null || files.length === 0) return;
    setChecking((n) => n + files.length);
    const accepted: { key: string; file: File; nodeId: number }[] = [];
    const rejected: RejectedItem[] = [];
    for (const file of files) {
      const key = `f${nextKey.current++}`;
      const reason = await checkFile(file, limits);
      if (reason) rejected.push({ key, name: file.name, size: file.size, reason });
      else accepted.push({ key, file, nodeId: target });
    }
    dispatch({ type: 'added', accepted, rejected });
    setChecking((n) => n - files.length);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) void addFiles(Array.from(e.dataTransfer.files));
  };

  const counts = summary(state);
  // Leaving the page (reload, close) while files wait would drop them: the browser asks first.
  useEffect(() => {
    if (counts.waiting === 0) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [counts.waiting]);
  const failed = state.items.filter((i) => i.status === 'failed');
  const processName = process.data?.name;

  return (
    <div className="container-xxl py-4 page upload-page" data-testid="upload-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <Link to="/entity/process" className="btn btn-outline-secondary btn-sm" data-testid="upload-back">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('soaApp.upload.title')}</h1>
          <p className="text-body-secondary mb-0 small" data-testid="upload-process-name">
            {processName ?? '\u00a0'}
          </p>
        </div>
      </div>

      <div className="card shadow-sm border-0 mb-3">
        <div className="card-body">
          {writable.length > 1 && (
            <div className="mb-3 upload-node-choice">
              <label htmlFor="upload-node" className="form-label">
                {t('soaApp.upload.node')}
              </label>
              <select
                id="upload-node"
                className="form-select"
                value={nodeId ?? ''}
                onChange={(e) => setChosenNodeId(Number(e.target.value))}
                data-testid="upload-node"
              >
                {writable.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div
            className={`upload-dropzone${dragging ? ' is-dragging' : ''}${disabled ? ' is-disabled' : ''}`}
            aria-disabled={disabled}
            data-testid="upload-dropzone"
            onDragOver={(e) => {
              e.preventDefault();
              e.dataTransfer.dropEffect = disabled ? 'none' : 'copy';
              if (!disabled) setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <IconUpload size={36} className="upload-dropzone-icon" />
            <p className="fw-medium mb-1">{t('soaApp.upload.dropHere')}</p>
            <p className="text-body-secondary small mb-3">
              {t('soaApp.upload.accepted', { max: sizeLabel(limits.maxBytes) })}
            </p>
            <input
              ref={input}
              id="upload-input"
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              className="visually-hidden"
              disabled={disabled}
              data-testid="upload-input"
              onChange={(e) => {
                const files = Array.from(e.target.files ?? []);
                e.target.value = '';
                void addFiles(files);
              }}
            />
            <button
              type="button"
              className="btn btn-primary"
              disabled={disabled}
              onClick={() => input.current?.click()}
              data-testid="upload-choose"
            >
              {t('soaApp.upload.choose')}
            </button>
            {disabled && !isLoading && (
              <p className="text-danger small mt-3 mb-0" data-testid="upload-disabled">
                {nodes.length === 0 ? t('soaApp.upload.noUploadNode') : t('soaApp.upload.noPermission')}
              </p>
            )}
            {!disabled && writable.length === 1 && (
              <p className="text-body-secondary small mt-3 mb-0" data-testid="upload-target">
                {t('soaApp.upload.into', { node: writable[0].name })}
              </p>
            )}
          </div>
          {checking > 0 && (
            <p className="small text-body-secondary mt-2 mb-0" data-testid="upload-checking">
              {t('soaApp.upload.checking')}
            </p>
          )}
        </div>
      </div>

      {state.rejected.length > 0 && (
        <section
          className="card shadow-sm border-0 mb-3 border-start border-warning border-4"
          data-testid="upload-rejected"
        >
          <div className="card-header bg-transparent d-flex align-items-center gap-2">
            <h2 className="h6 mb-0 me-auto">
              {t('soaApp.upload.rejectedTitle', { count: state.rejected.length })}
            </h2>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => dispatch({ type: 'discardAllRejected' })}
              data-testid="upload-discard-all"
            >
              {t('soaApp.upload.discardAll')}
            </button>
          </div>
          <ul className="list-group list-group-flush">
            {state.rejected.map((r) => (
              <li
                key={r.key}
                className="list-group-item d-flex gap-2 align-items-start"
                data-testid="upload-rejected-item"
              >
                <div className="me-auto min-w-0">
                  <div className="fw-medium text-break">
                    {r.name} <span className="text-body-secondary small">({sizeLabel(r.size)})</span>
                  </div>
                  <div className="small text-body-secondary" data-testid="upload-rejected-reason">
                    {reasonText(t, r.reason)}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  onClick={() => dispatch({ type: 'discard', key: r.key })}
                  aria-label={t('soaApp.upload.discard')}
                  title={t('soaApp.upload.discard')}
                  data-testid="upload-discard"
                >
                  <IconClose />
                  <span className="ms-1 d-none d-sm-inline">{t('soaApp.upload.discard')}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      {failed.length > 0 && (
        <section
          className="card shadow-sm border-0 mb-3 border-start border-danger border-4"
          data-testid="upload-errors"
        >
          <div className="card-header bg-transparent d-flex align-items-center gap-2">
            <h2 className="h6 mb-0 me-auto">{t('soaApp.upload.errorsTitle', { count: failed.length })}</h2>
            {failed.length > 1 && (
              <button
                type="button"
                className="btn btn-sm btn-outline-primary"
                onClick={() => dispatch({ type: 'retryAll' })}
                data-testid="upload-retry-all"
              >
                {t('soaApp.upload.retryAll')}
              </button>
            )}
          </div>
          <ul className="list-group list-group-flush">
            {failed.map((i) => (
              <li
                key={i.key}
                className="list-group-item d-flex gap-2 align-items-start"
                data-testid="upload-error-item"
              >
                <div className="me-auto min-w-0">
                  <div className="fw-medium text-break">{i.file.name}</div>
                  <div className="small text-danger" data-testid="upload-error-text">
                    {failureText(t, i.error)}
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  onClick={() => dispatch({ type: 'retry', key: i.key })}
                  data-testid="upload-retry"
                >
                  {t('soaApp.upload.retry')}
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  onClick={() => dispatch({ type: 'discard', key: i.key })}
                  aria-label={t('soaApp.upload.discard')}
                  title={t('soaApp.upload.discard')}
                >
                  <IconClose />
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      {state.items.length > 0 && (
        <section className="card shadow-sm border-0" data-testid="upload-list">
          <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
            <h2 className="h6 mb-0 me-auto">{t('soaApp.upload.filesTitle')}</h2>
            <span className="small text-body-secondary" data-testid="upload-summary">
              {t('soaApp.upload.summary', counts)}
            </span>
            {counts.done > 0 && (
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                onClick={() => dispatch({ type: 'clearDone' })}
                data-testid="upload-clear-done"
              >
                {t('soaApp.upload.clearDone')}
              </button>
            )}
          </div>
          <ul className="list-group list-group-flush">
            {state.items.map((item) => (
              <UploadRow key={item.key} item={item} processId={processId} canOpen={readsProcess} />
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/**
 * One file: name, size, status, progress; once uploaded, links to the workspace and the detail page (both
 * need a mode on the process: a user granted only the upload node sees the document's id instead).
 */
function UploadRow({ item, processId, canOpen }: { item: UploadItem; processId: number; canOpen: boolean }) {
  const { t } = useTranslation();
  const percent = percentOf(item);
  const tone =
    item.status === 'done' ? 'bg-success' : item.status === 'failed' ? 'bg-danger' : 'progress-bar-striped';
  return (
    <li
      className="list-group-item upload-row"
      data-testid="upload-item"
      data-status={item.status}
      data-filename={item.file.name}
      data-document-id={item.documentId}
    >
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <span className="fw-medium text-break me-auto" data-testid="upload-item-name">
          {item.file.name}
        </span>
        <span className="small text-body-secondary">{sizeLabel(item.file.size)}</span>
        <span className="small" data-testid="upload-item-status">
          {t(`soaApp.upload.status.${item.status}`)}
        </span>
        {item.status === 'done' && item.documentId !== undefined && !canOpen && (
          <span className="small text-body-secondary" data-testid="upload-item-id">
            {t('soaApp.upload.documentId', { id: item.documentId })}
          </span>
        )}
        {item.status === 'done' && item.documentId !== undefined && canOpen && (
          <span className="d-flex gap-2">
            <Link
              to={`/entity/process/${processId}/document/${item.documentId}`}
              className="btn btn-sm btn-outline-primary"
              data-testid="upload-item-open"
            >
              {t('soaApp.upload.open')}
            </Link>
            <Link
              to={`/entity/process/${processId}/documents/${item.documentId}`}
              className="btn btn-sm btn-outline-secondary"
              data-testid="upload-item-detail"
            >
              {t('soaApp.upload.details')}
            </Link>
          </span>
        )}
      </div>
      <div
        className="progress upload-progress"
        role="progressbar"
        aria-label={item.file.name}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        data-testid="upload-progress"
      >
        <div className={`progress-bar ${tone}`} style={{ width: `${percent}%` }}>
          {percent}%
        </div>
      </div>
    </li>
  );
}
