/** The tab row of both dashboards (spec 2 section 2): one button per tab, the chosen one active. */
import { useTranslation } from 'react-i18next';

export function DashboardTabs<T extends string>({
  tabs,
  tab,
  onTab,
  labelKey,
  testIdPrefix,
  className = '',
}: {
  tabs: readonly T[];
  tab: T;
  onTab: (tab: T) => void;
  /** i18n key prefix: the label of tab `id` is `${labelKey}.${id}` */
  labelKey: string;
  testIdPrefix: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <ul className={`nav nav-tabs card-header-tabs ${className}`} role="tablist">
      {tabs.map((id) => (
        <li className="nav-item" key={id}>
          <button
            type="button"
            role="tab"
            className={`nav-link ${tab === id ? 'active' : ''}`}
            aria-selected={tab === id}
            onClick={() => onTab(id)}
            data-testid={`${testIdPrefix}-${id}`}
          >
            {t(`${labelKey}.${id}`)}
          </button>
        </li>
      ))}
    </ul>
  );
}
