/**
 * Access tokens (API keys) of the signed-in user (issue 15 section 3; spec 3 "API keys page"): pages of 15
 * with create (expiration date) and delete; the token of a new key is shown once, with a copy button.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import {
  API_KEY_HEADER,
  API_KEY_MAX_DAYS,
  API_KEY_PAGE_SIZE,
  expirationDateRule,
  type ApiKeyDTO,
} from '@domain/api-keys';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { formatDate } from '../../../components/format';
import { IconKey, IconTrash } from '../../../components/icons';
import { Pagination } from '../../../components/Pagination';
import { NO_ANSWER } from '../../../components/pagination';
import { apiKeyQueries, useCreateApiKey, useDeleteApiKey } from '../api';

const DAY_MS = 86_400_000;
/** A day as YYYY-MM-DD in UTC: the server reads a calendar day as its end in UTC (domain/api-keys.ts). */
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function ApiKeysPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const keys = useQuery(apiKeyQueries.page(page));
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  const [expirationDate, setExpirationDate] = useState(() => isoDay(new Date(Date.now() + 90 * DAY_MS)));
  const [submitted, setSubmitted] = useState(false);
  const [created, setCreated] = useState<ApiKeyDTO | null>(null);
  const [copied, setCopied] = useState(false);
  const [deleting, setDeleting] = useState<ApiKeyDTO | null>(null);
  const violation = expirationDateRule(expirationDate, new Date());

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (violation) return;
    create.mutate(expirationDate, {
      onSuccess: (key) => {
        setCreated(key);
        setCopied(false);
        setSubmitted(false);
        setPage(0);
      },
    });
  };

  const copy = async () => {
    if (!created?.token) return;
    await navigator.clipboard?.writeText(created.token).catch(() => undefined);
    setCopied(true);
  };

  const now = Date.now();
  const data = keys.data;
  return (
    <div className="container py-4" style={{ maxWidth: 960 }} data-testid="api-keys-page">
      <h1 className="h3 mb-1 d-flex align-items-center gap-2">
        <IconKey size={22} /> {t('apiKeys.title')}
      </h1>
      <p className="text-body-secondary mb-4">{t('apiKeys.intro', { header: API_KEY_HEADER })}</p>

      <div className="card shadow-sm border-0 mb-4">
        <form className="card-body d-flex flex-wrap align-items-end gap-3" onSubmit={onCreate} noValidate>
          <div>
            <label htmlFor="api-key-expiration" className="form-label">
              {t('apiKeys.expirationDate')}
            </label>
            <input
              id="api-key-expiration"
              type="date"
              className={inputClass(violation, submitted)}
              value={expirationDate}
              min={isoDay(new Date(now + DAY_MS))}
              max={isoDay(new Date(now + (API_KEY_MAX_DAYS - 1) * DAY_MS))}
              onChange={(e) => setExpirationDate(e.target.value)}
              data-testid="api-key-expiration"
            />
          </div>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={create.isPending || (submitted && !!violation)}
            data-testid="api-key-create"
          >
            {t('apiKeys.create')}
          </button>
          {submitted && violation && (
            <div className="w-100">
              <ViolationMessage violation={violation} testId="api-key-expiration-error" />
            </div>
          )}
        </form>
      </div>

      {created?.token && (
        <div className="alert alert-success" role="status" data-testid="api-key-created">
          <div className="fw-semibold mb-2">{t('apiKeys.created')}</div>
          <div className="input-group">
            <input
              className="form-control font-monospace"
              readOnly
              value={created.token}
              onFocus={(e) => e.target.select()}
              aria-label={t('apiKeys.token')}
              data-testid="api-key-token"
            />
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={copy}
              data-testid="api-key-copy"
            >
              {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
            </button>
          </div>
          <div className="small mt-2">{t('apiKeys.shownOnce')}</div>
        </div>
      )}

      {!data ? (
        <DelayedSpinner label={t('global.common.loading')} testId="api-keys-loading" />
      ) : data.content.length === 0 ? (
        <p className="text-body-secondary" data-testid="api-keys-empty">
          {t('apiKeys.empty')}
        </p>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table align-middle" data-testid="api-keys-table">
              <thead>
                <tr>
                  <th>{t('apiKeys.token')}</th>
                  <th>{t('apiKeys.createdDate')}</th>
                  <th>{t('apiKeys.expirationDate')}</th>
                  <th>{t('apiKeys.lastUsed')}</th>
                  <th>
                    <span className="visually-hidden">{t('global.common.delete')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.content.map((key) => {
                  const expired = new Date(key.expirationDate).getTime() <= now;
                  return (
                    <tr key={key.id} data-testid="api-key-row" data-id={key.id}>
                      <td className="font-monospace">{key.prefix}…</td>
                      <td>{formatDate(key.createdDate)}</td>
                      <td>
                        {formatDate(key.expirationDate)}{' '}
                        {expired && <span className="badge text-bg-secondary">{t('apiKeys.expired')}</span>}
                      </td>
                      <td>{key.lastUsedDate ? formatDate(key.lastUsedDate) : t('apiKeys.never')}</td>
                      <td className="text-end">
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-danger"
                          onClick={() => setDeleting(key)}
                          aria-label={t('apiKeys.delete', { prefix: key.prefix })}
                          data-testid="api-key-delete"
                        >
                          <IconTrash />
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {data.page.totalPages > 1 && (
            <Pagination
              position={{ kind: 'page', page }}
              size={API_KEY_PAGE_SIZE}
              answer={{ ...NO_ANSWER, total: data.page.totalElements }}
              onGo={(to) => to.kind === 'page' && setPage(to.page)}
              testId="api-keys-pagination"
            />
          )}
        </>
      )}

      {deleting && (
        <ConfirmModal
          danger
          title={t('apiKeys.deleteTitle')}
          pending={remove.isPending}
          testId="api-key-delete-modal"
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                if (created?.id === deleting.id) setCreated(null);
                // the last key of a later page: back to the page before, which has keys
                if (data?.content.length === 1 && page > 0) setPage(page - 1);
                setDeleting(null);
              },
            })
          }
        >
          {t('apiKeys.deleteQuestion', { prefix: deleting.prefix })}
        </ConfirmModal>
      )}
    </div>
  );
}
