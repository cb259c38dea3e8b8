/**
 * Pieces the administration pages share: icon buttons with a hidden label, the paging state and footer, the
 * card of a list (loading, error, empty) and the delete confirmation.
 */
import { useState, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { IconPencil, IconTrash } from '../../../components/icons';
import { Pagination } from '../../../components/Pagination';
import { NO_ANSWER } from '../../../components/pagination';

/** A small outlined icon button (edit or delete) whose label is read by screen readers and shown as a tip. */
export function IconButton({
  kind,
  onClick,
  disabled,
  testId,
  className = '',
}: {
  kind: 'edit' | 'delete';
  onClick: () => void;
  disabled?: boolean;
  testId: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const label = t(kind === 'edit' ? 'global.common.edit' : 'global.common.delete');
  return (
    <button
      type="button"
      className={`btn btn-sm ${kind === 'edit' ? 'btn-outline-primary' : 'btn-outline-danger'} ${className}`}
      title={label}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {kind === 'edit' ? <IconPencil /> : <IconTrash />}
      <span className="visually-hidden">{label}</span>
    </button>
  );
}

/** Page and page size of a paged list; a new size (or `restart()`, on a new filter) goes back to page 0. */
export function usePaging(initialSize: number) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(initialSize);
  const footer = (total: number | undefined, testId: string): ReactNode =>
    total ? (
      <div className="mt-3">
        <Pagination
          position={{ kind: 'page', page }}
          size={size}
          answer={{ ...NO_ANSWER, total }}
          onGo={(to) => to.kind === 'page' && setPage(to.page)}
          onSize={(s) => {
            setSize(s);
            setPage(0);
          }}
          testId={testId}
        />
      </div>
    ) : null;
  return { page, size, restart: () => setPage(0), footer };
}

/**
 * The card of a list: a delayed spinner while it loads, its error, its empty message, or the rows that
 * `children` renders from the data.
 */
export function ListCard<T>({
  query,
  loadErrorKey,
  emptyKey,
  emptyTestId,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T>;
  loadErrorKey: string;
  emptyKey?: string;
  emptyTestId?: string;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="card shadow-sm border-0">
      {query.isPending ? (
        <DelayedSpinner label={t('global.common.loading')} />
      ) : query.isError ? (
        <div className="p-4 text-danger">{t(loadErrorKey)}</div>
      ) : emptyKey && isEmpty?.(query.data) ? (
        <div className="p-5 text-center text-body-secondary" data-testid={emptyTestId}>
          {t(emptyKey)}
        </div>
      ) : (
        children(query.data)
      )}
    </div>
  );
}

/** "Confirm delete operation" with the question, for a row of a list. */
export function DeleteConfirm({
  question,
  pending,
  onConfirm,
  onClose,
  testId,
}: {
  question: ReactNode;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmModal
      danger
      title={t('entity.delete.title')}
      pending={pending}
      onClose={onClose}
      onConfirm={onConfirm}
      testId={testId}
    >
      {question}
    </ConfirmModal>
  );
}
