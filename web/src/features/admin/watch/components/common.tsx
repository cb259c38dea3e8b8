/** Pieces shared by the watching pages: the title bar with its refresh button, table heads, filters. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function WatchHeader({
  title,
  onRefresh,
  children,
}: {
  title: string;
  onRefresh?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="d-flex align-items-center gap-2 mb-3">
      <h1 className="h3 mb-0">{title}</h1>
      {children}
      {onRefresh && (
        <button type="button" className="btn btn-sm btn-outline-primary ms-auto" onClick={onRefresh}>
          {t('adminWatch.refresh')}
        </button>
      )}
    </div>
  );
}

/** A table head of translated column titles. */
export function HeadRow({ keys }: { keys: string[] }) {
  const { t } = useTranslation();
  return (
    <thead>
      <tr>
        {keys.map((k) => (
          <th key={k}>{t(k)}</th>
        ))}
      </tr>
    </thead>
  );
}

export function FilterInput({
  value,
  onChange,
  placeholder,
  testId,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  testId: string;
}) {
  return (
    <input
      className="form-control form-control-sm mb-2"
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}
