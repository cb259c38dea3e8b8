/**
 * Pagination of a paged table (spec 2 section 9): previous / next, about 5 page buttons with ellipses
 * (./pagination.ts), and the per-page choice of 10, 20 or 50. Pages are zero-based; labels one-based. An
 * estimated total (`exact` false) shows as "about N". Under the result window (domain/paging.ts) only pages
 * inside it have number buttons; Next and Previous go on by cursor beyond it, and an estimated list has a
 * Last button (its end read backwards); a page beyond the window shows its number (or about its number,
 * counted from the end) as the current one.
 */
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@domain/validation';
import { pagerView, type PageAnswer, type PagePosition } from './pagination';

export interface PaginationProps {
  position: PagePosition;
  size: number;
  answer: PageAnswer;
  onGo: (position: PagePosition) => void;
  /** Without it the page size is fixed (no per-page choice). */
  onSize?: (size: number) => void;
  testId?: string;
}

export function Pagination({ position, size, answer, onGo, onSize, testId = 'pagination' }: PaginationProps) {
  const { t, i18n } = useTranslation();
  const view = pagerView(position, answer, size);
  const number = (n: number) => n.toLocaleString(i18n.language);
  const item = (
    to: PagePosition | null,
    label: string,
    key: string,
    opts: { active?: boolean; aria?: string; title?: string } = {},
  ) => (
    <li key={key} className={`page-item ${to ? '' : 'disabled'} ${opts.active ? 'active' : ''}`}>
      <button
        type="button"
        className="page-link"
        onClick={() => to && onGo(to)}
        disabled={!to}
        aria-current={opts.active ? 'page' : undefined}
        aria-label={opts.aria}
        title={opts.title}
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
          {item(view.previous, '‹', 'previous', { aria: t('global.pagination.previous') })}
          {view.items.map((p, i) =>
            p.kind === 'gap' ? (
              <li key={`gap${i}`} className="page-item disabled">
                <span className="page-link">…</span>
              </li>
            ) : (
              item(
                p.current ? position : p.position,
                p.about
                  ? t('global.pagination.pageAbout', { page: number(p.index + 1) })
                  : number(p.index + 1),
                p.about ? 'about' : String(p.index + 1),
                { active: p.current },
              )
            ),
          )}
          {view.last &&
            item(view.atLast ? position : view.last, t('global.pagination.last'), 'last', {
              active: view.atLast,
              title: t('global.pagination.lastTitle'),
            })}
          {item(view.next, '›', 'next', { aria: t('global.pagination.next') })}
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
      <span className="small text-body-secondary" data-testid={`${testId}-total`} data-exact={answer.exact}>
        {answer.exact
          ? t('global.pagination.total', { count: answer.total })
          : t('global.pagination.totalAbout', { count: answer.total })}
      </span>
    </div>
  );
}
