/**
 * Pagination of a paged table (spec 2 section 9): previous / next, about 5 page buttons with ellipses
 * (./pagination.ts), and the per-page choice of 10, 20 or 50. Pages are zero-based; labels one-based. An
 * estimated total (`exact` false) shows as "about N".
 */
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@domain/validation';
import { pageCount, pageItems } from './pagination';

export interface PaginationProps {
  page: number;
  size: number;
  total: number;
  /** false: `total` is an estimate */
  exact?: boolean;
  onPage: (page: number) => void;
  /** Without it the page size is fixed (no per-page choice). */
  onSize?: (size: number) => void;
  testId?: string;
}

export function Pagination({
  page,
  size,
  total,
  exact = true,
  onPage,
  onSize,
  testId = 'pagination',
}: PaginationProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, size);
  const item = (p: number, label: string, disabled: boolean, active = false, key: string = label) => (
    <li key={key} className={`page-item ${disabled ? 'disabled' : ''} ${active ? 'active' : ''}`}>
      <button
        type="button"
        className="page-link"
        onClick={() => onPage(p)}
        disabled={disabled}
        aria-current={active ? 'page' : undefined}
        data-testid={`${testId}-${key}`}
      >
        {label}
      </button>
    </li>
  );
  return (
    <div className="d-flex flex-wrap align-items-center gap-3" data-testid={testId}>
      <nav aria-label={t('global.pagination.label')}>
        <ul className="pagination pagination-sm mb-0">
          {item(page - 1, '‹', page <= 0, false, 'previous')}
          {pageItems(page, pages).map((p, i) =>
            p === 'gap' ? (
              <li key={`gap${i}`} className="page-item disabled">
                <span className="page-link">…</span>
              </li>
            ) : (
              item(p, String(p + 1), false, p === page, String(p + 1))
            ),
          )}
          {item(page + 1, '›', page >= pages - 1, false, 'next')}
        </ul>
      </nav>
      {onSize && (
        <label className="d-flex align-items-center gap-2 small text-body-secondary mb-0">
          {t('global.pagination.perPage')}
          <select
            className="form-select form-select-sm w-auto"
            value={size}
            onChange={(e) => onSize(Number(e.target.value))}
            data-testid={`${testId}-size`}
          >
            {LIMITS.pageSizes.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      )}
      <span className="small text-body-secondary" data-testid={`${testId}-total`} data-exact={exact}>
        {exact
          ? t('global.pagination.total', { count: total })
          : t('global.pagination.totalAbout', { count: total })}
      </span>
    </div>
  );
}
