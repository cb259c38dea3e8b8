/** The product name (from management/app-name) with its logo mark. */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { managementQueries } from '../api';

export function useAppName(): string {
  const { t } = useTranslation();
  const { data } = useQuery(managementQueries.appName());
  const name = data?.appName || t('global.title');
  useEffect(() => {
    document.title = name;
  }, [name]);
  return name;
}

export function BrandMark({ size = 26 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="brand-mark">
      <circle cx="16" cy="16" r="15" fill="#3559e0" />
      <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="2.5" />
      <circle cx="16" cy="16" r="3.5" fill="#fff" />
    </svg>
  );
}
